#pragma once
// `collsim compare --plan MODEL`: two training layouts (or one layout on two
// machines) side by side, as compare shows collectives and replays.
#include "sim/plan/planner.hpp"
#include "sim/report/compare.hpp"

namespace collsim {

// A row for the step (time; tokens/s, MFU, memory per GPU, bubble share;
// its B/A and verdict by time per token, so that layouts of other batch
// sizes compare by throughput), then one per communicator and operation either side has (its exposed
// time). A layout that does not fit memory has no times, and its verdict
// says so instead of a ratio.
void add_plan_rows(Comparison& c, const PlanResult& a, const PlanResult& b);

}  // namespace collsim
