#pragma once
// A collective as data: per rank and channel, the steps that move and combine
// chunks, with explicit dependencies. Algorithms build schedules; the executor
// times them on a network; a symbolic run checks them without timing.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/units.hpp"

namespace collsim {

using StepId = uint32_t;

enum class StepKind {
    send,    // rank's current value of `chunk` is delivered to `peer`'s receive slot
    reduce,  // rank combines the chunk received from `peer` into its own value
    copy,    // rank takes the chunk received from `peer` as its own value
};

struct Step {
    StepKind kind = StepKind::send;
    int rank = 0;     // position in the communicator
    int peer = 0;     // send: destination; reduce/copy: whose delivered data is consumed
    int channel = 0;
    int chunk = 0;
    Bytes bytes;
    std::vector<StepId> deps;  // steps that must finish before this one starts
};

struct Schedule {
    std::string algorithm;
    int ranks = 0;
    int channels = 1;
    int chunks = 0;  // the buffer is cut into this many chunks
    std::vector<Step> steps;

    StepId add(Step s) {
        steps.push_back(std::move(s));
        return static_cast<StepId>(steps.size() - 1);
    }
};

}  // namespace collsim
