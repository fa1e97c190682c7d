#pragma once
// Replays a trace on a topology. Each rank's streams run their ops in order;
// an op starts once its stream is free and the ops it names in `after` are
// done. A collective starts only when every rank of its group has reached it
// (early ranks wait, and the wait is recorded); a send and its receive start
// together. All communication shares one Simulator and one Network, so
// concurrent collectives contend for links. Rank r runs on the topology's
// r-th GPU.
#include <optional>

#include "sim/core/run_monitor.hpp"
#include "sim/faults/fault_plan.hpp"
#include "sim/hw/topology.hpp"
#include "sim/model/calibration.hpp"
#include "sim/model/model_tier.hpp"
#include "sim/replay/replay_result.hpp"
#include "sim/replay/trace.hpp"

namespace collsim {

struct ReplayOptions {
    int steps = 1;  // the program runs this many times back to back
    Calibration calibration;
    bool sample_links = false;  // record link traffic over time (for Perfetto tracks)
    // Collectives with more steps than this are simulated with fewer channels
    // than NCCL launches (PredictRequest::max_steps); the report says so.
    std::size_t max_schedule_steps = 4'000'000;
    std::string algo = "auto", proto = "auto";  // fix every collective's algorithm / protocol
    ModelTier model = ModelTier::automatic;       // flow, fluid or auto (not analytical: a replay shares a network)
    std::vector<std::string> disabled, enabled;
    // Identical fluid streams of a collective as one weighted flow (stream
    // classes, sim/exec/executor.cpp); off only to check that they are exact.
    bool stream_classes = true;  // as PredictRequest's: what the tuner may not / may pick
    const FaultPlan* faults = nullptr;  // link and compute faults (sim/faults), if any
    std::optional<Time> timeout;        // watchdog: stop there and report a hang
    uint64_t seed = 1;                  // for intermittent stragglers
    // Polled by the simulation (progress, a wall-clock limit): each op
    // instance finished counts as one unit done. A RunStopped it throws
    // leaves replay().
    RunMonitor* monitor = nullptr;
};

// Throws InputError when the trace needs more GPUs than the topology has, and
// InputErrors naming the stuck ops when the trace deadlocks by itself. When
// faults or the watchdog stop it, the result holds a hang report instead.
ReplayResult replay(const Topology& topo, const Trace& trace, const ReplayOptions& opts);

}  // namespace collsim
