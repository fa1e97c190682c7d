#pragma once
#include <string>

#include <CLI/CLI.hpp>

namespace collsim {

struct CollOptions {
    std::string topology;
    std::string op = "allreduce";
    std::string algo = "auto";
    std::string proto = "auto";
    std::string sizes = "8:1G";
    std::string dtype = "float";
    std::string format = "table";
    std::string calibration;  // a profile from `collsim calibrate`; empty: defaults
    std::string routing = "ecmp";
    int ranks = 0;     // 0: every GPU of the topology
    int channels = 0;  // 0: one per distinct first-hop link between ring neighbours
    uint64_t seed = 0;
    std::string faults;   // fault scenario YAML
    std::string timeout;  // watchdog, e.g. 10min
    bool fail_on_hang = false;
};

CLI::App* add_coll_command(CLI::App& app, CollOptions& opts);
// Writes results to stdout; throws InputError on bad input.
int run_coll(const CollOptions& opts);

}  // namespace collsim
