#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/cli/nccl_tests_flags.hpp"
#include "sim/cli/progress_monitor.hpp"
#include "sim/report/coll_report.hpp"

namespace collsim {

struct CollOptions {
    std::string topology;
    std::vector<std::string> settings;  // --set PATH=VALUE changes to the topology file
    std::string op;         // empty: allreduce, or the --algo-file's operation
    std::string algo = "auto";
    std::string algo_file;  // an MSCCL XML algorithm instead of --algo
    std::string proto = "auto";
    std::vector<std::string> disable;  // algorithms the tuner may not pick (NCCL_NVLS_ENABLE=0, ...)
    std::vector<std::string> enable;   // algorithms off by default that it may (NCCL_COLLNET_ENABLE=1)
    std::string sizes = "8:1G";
    std::string dtype = "float";
    std::string format = "table";
    std::string calibration;  // a profile from `collsim calibrate`; empty: defaults
    std::string routing = "ecmp";
    std::string model = "auto";
    std::string gpus;  // "0,2,4" or GPU names; empty: --ranks
    int ranks = 0;     // 0: every GPU of the topology
    int root = -1;     // -1: not given (0 for Broadcast and Reduce)
    int channels = 0;  // 0: one per distinct first-hop link between ring neighbours
    // Which of --ranks, --gpus, --root and --channels the command line gave:
    // a given 0, -1 or empty value is an error, not the default.
    bool ranks_given = false, gpus_given = false, root_given = false, channels_given = false;
    int gpus_per_thread = -1;  // nccl-tests' -g: its launches bound the time; -1: not given, no bound
    bool explain = false;
    int links = 10;    // busiest link directions reported per simulated size (as replay's --links)
    uint64_t seed = 0;
    std::string faults;   // fault scenario YAML
    std::string timeout;  // watchdog, e.g. 10min
    bool fail_on_hang = false;
    ProgressOptions progress;  // --wall-limit, --quiet
    NcclTestsFlags nccl_tests;  // -b -e -f -i -o, and -n -w -c ignored
    // Which of --algo, --proto, --disable, --enable the command line gave: the
    // environment's NCCL_* settings stand in for the others.
    bool algo_given = false, proto_given = false, switches_given = false;
    bool sizes_given = false;
    // NCCL_ALGO and the like from the environment (nccl_environment.hpp);
    // regress turns it off: a suite gives the same numbers in every shell.
    bool follow_environment = true;
};

// A sweep as simulated, before it is rendered.
struct CollRun {
    CollReport report;
    std::size_t sizes = 0;  // asked for: report.rows holds fewer when stopped
    bool hung = false;      // some size never finished (its row says why)
    bool stopped = false;   // the monitor stopped the run (RunStopped)
};

CLI::App* add_coll_command(CLI::App& app, CollOptions& opts);
// Checks the options, loads the inputs and simulates every size (notes on
// stderr); throws InputError on bad input. `hook` may be null.
CollRun simulate_coll(const CollOptions& opts, RunMonitor* hook);
// Writes results to stdout; throws InputError on bad input.
int run_coll(const CollOptions& opts);

}  // namespace collsim
