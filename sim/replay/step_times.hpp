#pragma once
// How long each step of a replay took, and their spread: step s ends when the
// last op of step s on any rank ends, and takes the time since step s-1
// ended. Faults that strike some steps (stragglers, a flapping port) show in
// the tail: p99 and max against p50.
#include <vector>

#include "sim/replay/replay_result.hpp"

namespace collsim {

struct StepTimes {
    std::vector<Time> each;
    Time p50, p99, max, mean;
};

StepTimes step_times(const Trace& trace, const ReplayResult& r);

}  // namespace collsim
