#pragma once
#include <string>

#include <CLI/CLI.hpp>

namespace collsim {

struct NumericsOptions {
    std::string op = "allreduce";
    std::string algo = "ring";
    std::string compare;  // comma-separated ALGO[@RANKS][:TOPOLOGY] run on the same data
    int ranks = 8;
    std::string elements = "1M";
    std::string dtype = "fp32";
    std::string accum = "native";
    std::string topology;
    int runs = 1;
    uint64_t seed = 0;
    std::string dist = "normal";
    std::string format = "table";
};

CLI::App* add_numerics_command(CLI::App& app, NumericsOptions& opts);
int run_numerics_command(const NumericsOptions& opts);

}  // namespace collsim
