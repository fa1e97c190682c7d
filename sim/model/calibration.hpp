#pragma once
// The model's free parameters. Defaults (a default-constructed Calibration)
// are hardware specs and NCCL's published constants; `collsim calibrate`
// fits them to nccl-tests logs and writes them as a profile.
#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/exec/protocol.hpp"

namespace collsim {

struct SizeCorrection {
    Bytes from, to;  // applies to sizes in [from, to)
    double factor = 1.0;  // multiplies the predicted time
};

struct Calibration {
    std::string nccl_version{kNcclModelVersion};  // release of the logs it was fitted to
    std::string fitted_from;                       // log files, for the record
    // Per LinkClass (nvlink, pci, net): share of a link's nominal bandwidth that
    // collectives achieve, in (0, 1].
    std::array<double, 3> bandwidth_efficiency{1.0, 1.0, 1.0};
    // Per LinkClass: added to every protocol's per-step latency on that kind of
    // path (negative lowers it; the result never goes below zero).
    std::array<Time, 3> hop_latency_delta{};
    // Per (NCCL family, protocol): replaces the launch latency.
    std::map<std::pair<NcclFamily, ProtoKind>, Time> base_latency;
    std::vector<SizeCorrection> size_corrections;

    bool is_default() const;
};

// The protocol with the calibrated latencies applied.
Protocol calibrated(Protocol p, NcclFamily family, const Calibration& c);
// The size correction factor for a message size (1.0 where none applies).
double size_factor(const Calibration& c, Bytes size);

}  // namespace collsim
