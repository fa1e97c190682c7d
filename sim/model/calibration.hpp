#pragma once
// The model's free parameters. Defaults (a default-constructed Calibration)
// are hardware specs and NCCL's published constants; `collsim calibrate`
// fits them to nccl-tests logs and writes them as a profile.
#include <array>
#include <map>
#include <optional>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/exec/collective.hpp"
#include "sim/exec/protocol.hpp"

namespace collsim {

struct SizeCorrection {
    Bytes from, to;  // applies to sizes in [from, to)
    double factor = 1.0;  // multiplies the predicted time
};

// Host time to launch one GPU's collective. nccl-tests' -g N has one thread
// launch each collective on N GPUs in turn, so back-to-back small collectives
// take at least N times this. NVIDIA/nccl-tests issue #123 (DGX A100, ring,
// one channel, 8-128 B) measured 10 us with -g 2 rising about 4 us per GPU to
// 33.7 us with -g 8, far above the ring's own latency: 33.7 / 8 GPUs.
// Hosts differ (the shipped 8-GPU runs floor at 3.1-7 us per GPU): a fit
// on a -g run moves it, and it is the host's own, so `validate --cross`
// carries it to no other run (calibration_scope.hpp).
inline constexpr Time kDefaultLaunchPerGpu = Time::from_ps(4'200'000);

struct Calibration {
    std::string nccl_version{kNcclModelVersion};  // release of the logs it was fitted to
    std::string fitted_from;                       // log files, for the record
    // Per LinkClass (nvlink, pci, net): share of a link's nominal bandwidth that
    // collectives achieve, in (0, 1].
    std::array<double, 3> bandwidth_efficiency{1.0, 1.0, 1.0};
    // Share of its modelled rate NCCL's point-to-point path achieves
    // (AllToAll, SendRecv, a trace's sends), in (0, 2]: it scales both what
    // the links carry and the bound of the p2p channels in use
    // (algorithms/tuner/p2p_channels.hpp). NCCL's cost model covers
    // collectives only and gives no figure for it: 1.0 until point-to-point
    // runs are fitted.
    double p2p_bandwidth_efficiency = 1.0;
    // Share of NCCL's NVLS rate (nvlsEfficiency of the NVLinks' rate) that
    // NVLink SHARP's sends into and out of the switch achieve, in (0, 2];
    // the NVLink factor above does not touch them. NVLS's rate is the
    // switch's multimem throughput, not a ring's copy through the links: a
    // fit on ring runs (2 x B200 AllGather at 0.65 of NCCL's link rate)
    // says nothing about it, and NVLS runs say nothing about rings.
    double nvls_bandwidth_efficiency = 1.0;
    // Per LinkClass: added to every protocol's per-step latency on that kind of
    // path (negative lowers it; the result never goes below zero).
    std::array<Time, 3> hop_latency_delta{};
    // Per (NCCL family, protocol): replaces the launch latency.
    std::map<std::pair<NcclFamily, ProtoKind>, Time> base_latency;
    // Per (collective, NCCL family, protocol): replaces it for that collective
    // only, ahead of base_latency. A fit writes these: launch latency fitted
    // on AllReduce rows says nothing about AllGather's (a fit on AllReduce
    // carried to AllGather turned a 48% too-fast prediction into 57% too slow).
    std::map<std::tuple<CollOp, NcclFamily, ProtoKind>, Time> op_base_latency;
    std::vector<SizeCorrection> size_corrections;
    Time launch_per_gpu = kDefaultLaunchPerGpu;

    bool is_default() const;
};

// The protocol with the calibrated latencies applied; `op`'s own launch
// latency where the profile has one.
Protocol calibrated(Protocol p, NcclFamily family, const Calibration& c, std::optional<CollOp> op = std::nullopt);
// A protocol of the point-to-point path: its payload share scaled by
// p2p_bandwidth_efficiency, so every link it crosses carries payload at that
// share of the collectives' rate, and each GPU's sends held to
// `channels_GBps` (the p2p channels' bound, p2p_channels.hpp; 0: none) at
// that share too.
Protocol point_to_point(Protocol p, const Calibration& c, double channels_GBps);
// The size correction factor for a message size (1.0 where none applies).
double size_factor(const Calibration& c, Bytes size);
// The least time between collectives that one thread launches on
// `gpus_per_thread` GPUs in turn.
Time launch_floor(int gpus_per_thread, const Calibration& c);
// What nccl-tests measures for a collective the GPUs finish in `device`
// when one thread launches it on `gpus_per_thread` GPUs: whichever is slower.
Time with_launch_floor(Time device, int gpus_per_thread, const Calibration& c);

}  // namespace collsim
