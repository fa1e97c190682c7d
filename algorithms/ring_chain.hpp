#pragma once
// Broadcast and Reduce on the ring: a pipelined chain that starts at (or ends
// at) the root, as NCCL runs them with its ring algorithm.
#include "algorithms/cost_model.hpp"
#include "sim/exec/collective.hpp"
#include "sim/exec/schedule.hpp"

namespace collsim {

Schedule ring_chain_schedule(const CollectiveCall& call);
Estimate ring_chain_estimate(const CollectiveCall& call, CostModel& m);

}  // namespace collsim
