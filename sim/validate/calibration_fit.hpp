#pragma once
// Fits the model's free parameters to measured runs: per link class (NVLink,
// PCI, network) a bandwidth factor on NCCL's own link figures and a change
// to every per-step latency; the share of that rate point-to-point
// operations (AllToAll, SendRecv) get; per (NCCL family, protocol) the launch latency;
// optionally a time factor per size range (as SimGrid corrects its network
// model piecewise by message size). The launch floor of runs whose threads
// drove several GPUs (-g) is taken as the start gives it, not fitted. Least
// squares on log time over every usable row, under Huber's loss and
// weighed down where a run is noisy (robust_loss.hpp), within bounds that keep the result physical: a link never
// beats its nominal rate, no latency goes below zero.
#include <string>
#include <vector>

#include "sim/core/run_monitor.hpp"
#include "sim/model/calibration.hpp"
#include "sim/validate/dataset.hpp"
#include "sim/validate/error_stats.hpp"
#include "sim/validate/row_threads.hpp"

namespace collsim {

struct FitOptions {
    // Boundaries of the size ranges that get their own factor (e.g. 64K, 64M
    // make three ranges); empty: no size corrections.
    std::vector<Bytes> size_boundaries;
    int max_iterations = 8;
    // Polled by every prediction of the fit (progress, a wall-clock limit);
    // a RunStopped it throws leaves fit_calibration.
    RunMonitor* monitor = nullptr;
    // A second thread for each simulation's rows, where a core is free.
    RowThreads* rows = nullptr;
};

struct FittedParameter {
    std::string name;  // "nvlink bandwidth factor", "ring/simple base latency (us)", ...
    double start = 0, value = 0, lo = 0, hi = 0;
    // false: left at its start, because no row depends on it (a link the runs
    // never cross), or the rows cannot tell it from another parameter (a
    // latency from bandwidth-bound rows only, a link's rate from
    // point-to-point runs only)
    bool active = true;
    std::string at_bound;  // "lower" or "upper" where the fit ended there; empty otherwise
};

// A row the fit weighed less than least squares would (Huber's loss, or a
// noisy run): listed so a user sees which measurements it did not trust.
struct DownWeightedRow {
    std::string file;
    int line = 0;
    Bytes size;
    double measured_us = 0, predicted_us = 0;  // predicted with the fitted parameters
    double weight = 1;                         // against least squares' 1
    std::string why;
};

struct FitResult {
    Calibration calibration;
    std::vector<FittedParameter> parameters;
    ErrorSummary before, after;  // errors of the start and of the fitted calibration
    std::vector<DownWeightedRow> downweighted;
    int rows = 0, evaluations = 0;
};

// Starts from `start` (usually the defaults). Throws InputError if a dataset
// cannot be predicted at all.
FitResult fit_calibration(const std::vector<const Dataset*>& data, TopologyCache& machines, const Calibration& start,
                          const FitOptions& options = {});

// What a fit made worse on its own rows than where it started (the
// latency-bound or bandwidth-bound median, or the geometric mean, by more
// than half a point), e.g. "latency-bound median 14.6% -> 93.7%"; empty when
// nothing. A fit that worsens its own rows chased something the model does
// not have, and would mispredict other runs more.
std::string fit_made_worse(const ErrorSummary& before, const ErrorSummary& after);

}  // namespace collsim
