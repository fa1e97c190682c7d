#pragma once
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "workloads/gen/dp.hpp"
#include "workloads/gen/hybrid.hpp"
#include "workloads/gen/moe.hpp"
#include "workloads/gen/pp.hpp"
#include "workloads/gen/tp.hpp"

namespace collsim {

// Options of `collsim gen`; quantities stay text until run_gen parses them
// with their units, so errors name the option.
struct GenCliOptions {
    std::string command;  // the command line, recorded in the trace
    std::string format = "json";
    std::string output;
    uint64_t seed = 1;
    // shared
    std::string name, gpu_card, layer_time, layer_flops, params, bucket = "25MiB", overlap = "on", optimizer = "0s";
    double flops_efficiency = 0.5, memory_efficiency = 0.8;
    int ranks = 8, layers = 24;
    int64_t tokens = 0, hidden = 4096, ffn = 0, seq = 2048, batch = 1;
    bool zero = false;
    std::string grad_dtype = "bf16";
    // tp
    std::string mode = "train";
    int tp = 8;
    // pp and 3d
    int stages = 4, pp = 4, dp = 2, microbatches = 8;
    std::string schedule = "1f1b", forward, backward, activation = "1MiB", tp_placement = "inside";
    // moe
    int experts = 64, top_k = 2;
    double skew = 1.0;
};

// Adds `gen` with its subcommands dp, tp, pp, moe and 3d.
CLI::App* add_gen_command(CLI::App& app, GenCliOptions& opts);
int run_gen(const CLI::App& gen, const GenCliOptions& opts);

}  // namespace collsim
