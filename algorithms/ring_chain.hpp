#pragma once
// Broadcast and Reduce on the ring: a pipelined chain that starts at (or ends
// at) the root, as NCCL runs them with its ring algorithm.
#include "algorithms/cost_model.hpp"
#include "algorithms/fluid_form.hpp"
#include "sim/exec/collective.hpp"
#include "sim/exec/schedule.hpp"

namespace collsim {

Schedule ring_chain_schedule(const CollectiveCall& call);
Estimate ring_chain_estimate(const CollectiveCall& call, CostModel& m);
// The closed form with its steady state: every hop (and, for Reduce, every
// GPU's reductions) busy with k-1 chunks (fluid_form.hpp).
FluidForm ring_chain_form(const CollectiveCall& call, CostModel& m, bool streams);

}  // namespace collsim
