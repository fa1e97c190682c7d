#pragma once
// The closed form of a ring pass, shared by the ring and the hierarchical
// algorithms. A ring step waits for the data its predecessor sent in the
// previous step, so one bound is the data's path: consecutive hops around the
// ring, each costing its latency, its transfer and (while reducing) the
// reduction. The other is the busiest link: each hop carries every step's
// chunk in turn, so a slow hop (a NIC among NVLinks) is busy for all of them.
// The ring takes the larger of the two. Every hop of every channel sends at
// once, so hops whose routes meet on a link divide it.
#include <vector>

#include "algorithms/cost_model.hpp"
#include "algorithms/fluid_form.hpp"

namespace collsim {

// `reduce_steps` reduce-scatter steps then `copy_steps` all-gather steps of
// `bytes` per channel around `ring` (ranks in ring order), `channels` at once.
// `form`, if given, receives the fluid form's steady state (fluid_form.hpp):
// every hop busy for all steps, which the busiest hop bounds.
Estimate ring_pass(CostModel& m, const std::vector<int>& ring, int reduce_steps, int copy_steps, Bytes bytes,
                   int channels, FluidForm* form = nullptr);

}  // namespace collsim
