#pragma once
// What `replay` sets up from its options before it runs (the topology with
// its --set settings, the trace, the replay options), so that `compare`
// replays the same way on each side.
#include <memory>
#include <optional>

#include "sim/cli/replay_command.hpp"
#include "sim/faults/fault_plan.hpp"
#include "sim/replay/replayer.hpp"
#include "sim/replay/trace.hpp"

namespace collsim {

struct PreparedReplay {
    Topology topo;
    Trace trace;
    ReplayOptions opts;  // refers to faults: the object never moves
    std::optional<FaultPlan> faults;
    uint64_t ops = 0;  // op instances to finish (twice with faults: the baseline)
};

// Checks `o` (InputError on bad input, all but --format) and loads what it
// names; the environment's NCCL_* and the trace's notes go to stderr.
// `monitor` (may be null) is polled by the replay.
std::unique_ptr<PreparedReplay> prepare_replay(const ReplayCliOptions& o, RunMonitor* monitor);

}  // namespace collsim
