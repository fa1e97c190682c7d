#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "sim/cli/progress_monitor.hpp"
#include "sim/faults/fault_plan.hpp"
#include "sim/hw/topology.hpp"
#include "sim/replay/replayer.hpp"
#include "sim/replay/trace.hpp"

namespace collsim {

struct ReplayCliOptions {
    std::string topology;
    std::vector<std::string> settings;  // --set PATH=VALUE changes to the topology file
    std::string trace;
    bool ranks_present = false;
    std::string format = "table";
    std::string perfetto;  // output file; empty: none
    std::string calibration;  // a profile from `collsim calibrate`; empty: defaults
    int steps = 1;
    int rows = 10;   // collectives and bubbles listed in the table
    int links = 10;  // busiest links reported (and given Perfetto tracks)
    uint64_t seed = 1;
    std::string algo = "auto", proto = "auto";
    std::string model = "auto";  // auto, flow or fluid
    std::vector<std::string> disable, enable;  // as coll's --disable / --enable
    std::string faults;   // fault scenario YAML; empty: none
    std::string timeout;  // watchdog; empty: none
    bool fail_on_hang = false;
    std::size_t max_schedule_steps = 4'000'000;
    ProgressOptions progress;  // --wall-limit, --quiet
    // Whether the command line gave --algo, --proto, --disable/--enable: the
    // environment's NCCL_* settings stand in for the others.
    std::array<bool, 3> choice_given{};
    // As CollOptions::follow_environment.
    bool follow_environment = true;
};

// A replay's inputs but the topology, loaded and checked, ready for replay()
// (a Topology is not moved: Boost.Graph copies where it could move).
struct ReplayInputs {
    Trace trace;
    std::optional<FaultPlan> faults;
    ReplayOptions opts;  // without faults or monitor: options() adds the faults
    ReplayOptions options() const;
};

// Checks the options (not --format) and loads the trace and the faults on
// `topo` (loaded from opts.topology); throws InputError on bad input.
ReplayInputs load_replay_inputs(const ReplayCliOptions& opts, const Topology& topo);

CLI::App* add_replay_command(CLI::App& app, ReplayCliOptions& opts);
// Writes results to stdout (and the Perfetto file); throws InputError on bad input.
int run_replay(const ReplayCliOptions& opts);

}  // namespace collsim
