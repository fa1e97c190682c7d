#pragma once
// A pipeline-parallel step over p stages (one rank each) with m microbatches,
// each pass of fixed duration, GPipe or 1F1B (pipeline.hpp).
#include <string>

#include "workloads/gen/pipeline.hpp"

namespace collsim::gen {

struct PpOptions {
    std::string name = "pp";
    int stages = 4;
    int microbatches = 8;
    std::string schedule = "1f1b";
    Time forward{};   // per microbatch per stage
    Time backward{};  // 0: twice the forward
    Bytes activation{1 << 20};
};

Json generate_pp(const PpOptions& o, const std::string& command);

}  // namespace collsim::gen
