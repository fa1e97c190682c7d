#pragma once
// What regress measured for a suite, as a baseline file records it: the
// versions it was made with, a hash of every input and, per entry, each
// metric ("1M time_us", "step_time_us") and what ran.
//
//   {"collsim_version": "0.1.0", "model_version": 1, "suite": "suite.yaml",
//    "inputs": {"suite.yaml": "<fnv1a64>", "../topologies/dgx-h100.yaml": "<fnv1a64>"},
//    "entries": [{"name": "dgx-h100/allreduce/ring/auto", "model": "auto", "hung": false,
//                 "ran": {"1M": "ring simple 8ch flow"}, "metrics": {"1M time_us": 35.2, ...}}]}
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/error.hpp"

namespace collsim {

struct EntryResult {
    std::string name{};
    std::string model = "auto";  // the tier asked for
    bool hung = false;
    std::string hang{};  // what hung, in words; empty: nothing
    // In the order measured; times in microseconds, bandwidths in GB/s.
    std::vector<std::pair<std::string, double>> metrics{};
    // What ran, per size for a collective ("ring simple 8ch flow"): a
    // different choice is reported, not failed.
    std::vector<std::pair<std::string, std::string>> ran{};
    // The suite's tolerance for this entry, if it gives one (not recorded:
    // the suite, not the baseline, says how strict a check is).
    std::optional<double> tolerance{};
};

struct Baseline {
    std::string collsim_version{};
    int model_version = 0;
    std::string suite{};  // the suite file, as given
    std::vector<std::pair<std::string, std::string>> inputs{};  // path as the suite writes it, its FNV-1a 64
    std::vector<EntryResult> entries{};  // in the suite's order
    SourceLocation model_version_at{};  // where a loaded file says its model_version
};

std::string render_baseline(const Baseline& b);
// InputError (file, line, column, field) for a file that is not a baseline.
// Any model_version is read: check_model_version says whether it is usable.
Baseline load_baseline(const std::string& path);
// InputError at the file's model_version unless it is this collsim's
// kModelVersion: its numbers are not comparable.
void check_model_version(const Baseline& b, const std::string& path);

}  // namespace collsim
