#pragma once
// Fits the model's free parameters to measured runs: per link class (NVLink,
// PCI, network) a bandwidth factor on NCCL's own link figures and a change
// to every per-step latency; the share of that rate point-to-point
// operations (AllToAll, SendRecv) get; per (NCCL family, protocol) the launch latency;
// optionally a time factor per size range (as SimGrid corrects its network
// model piecewise by message size). The launch floor of runs whose threads
// drove several GPUs (-g) is taken as the start gives it, not fitted. Least
// squares on log time over every usable row, within bounds that keep the result physical: a link never
// beats its nominal rate, no latency goes below zero.
#include <string>
#include <vector>

#include "sim/core/run_monitor.hpp"
#include "sim/model/calibration.hpp"
#include "sim/validate/dataset.hpp"
#include "sim/validate/error_stats.hpp"

namespace collsim {

struct FitOptions {
    // Boundaries of the size ranges that get their own factor (e.g. 64K, 64M
    // make three ranges); empty: no size corrections.
    std::vector<Bytes> size_boundaries;
    int max_iterations = 8;
    // Polled by every prediction of the fit (progress, a wall-clock limit);
    // a RunStopped it throws leaves fit_calibration.
    RunMonitor* monitor = nullptr;
};

struct FittedParameter {
    std::string name;  // "nvlink bandwidth factor", "ring/simple base latency (us)", ...
    double start = 0, value = 0, lo = 0, hi = 0;
    // false: left at its start, because no row depends on it (a link the runs
    // never cross), or the rows cannot tell it from another parameter (a
    // latency from bandwidth-bound rows only, a link's rate from
    // point-to-point runs only)
    bool active = true;
};

struct FitResult {
    Calibration calibration;
    std::vector<FittedParameter> parameters;
    ErrorSummary before, after;  // errors of the start and of the fitted calibration
    int rows = 0, evaluations = 0;
};

// Starts from `start` (usually the defaults). Throws InputError if a dataset
// cannot be predicted at all.
FitResult fit_calibration(const std::vector<const Dataset*>& data, TopologyCache& machines, const Calibration& start,
                          const FitOptions& options = {});

}  // namespace collsim
