#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/cli/html_option.hpp"

namespace collsim {

// `collsim compare`: variant A against variant B. Each side's topology,
// --set settings, calibration and algorithm default to the common option and
// --a-*/--b-* change one side; the settings of both and of one side add up.
struct CompareOptions {
    std::vector<std::string> files;  // positional: A's and B's topology (one: both)
    std::string topology, a_topology, b_topology;
    std::vector<std::string> settings, a_settings, b_settings;
    std::string calibration, a_calibration, b_calibration;
    std::string algo, a_algo, b_algo;  // a registered name, or an MSCCL XML file (collectives)
    std::string proto = "auto";
    std::string op, sizes = "8:1G", dtype = "float", model = "auto", routing = "ecmp";
    int ranks = 0;
    bool ranks_given = false, proto_given = false, op_given = false, sizes_given = false;
    std::string trace;  // a workload trace: compare the replayed step instead
    std::string plan;   // a model card: compare a training layout's step instead
    std::vector<std::string> layout, a_layout, b_layout;  // plan's layout options, KEY=VALUE
    int steps = 1;
    int rows = 5;   // replay: A's longest collectives, each beside B's
    int links = 3;  // busiest link directions shown per row and side
    std::string threshold = "2%";
    std::string format = "table";
    uint64_t seed = 0;
    bool quiet = false;
    HtmlOption html;
};

CLI::App* add_compare_command(CLI::App& app, CompareOptions& opts);
// Writes the comparison to stdout; throws InputError on bad input.
int run_compare(const CompareOptions& opts);

}  // namespace collsim
