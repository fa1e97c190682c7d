#pragma once
// The two halves of NVLink SHARP that NVLS and NVLSTree share, as schedule
// steps: the switch adds every GPU's copy of a piece and hands the sum to the
// piece's owner (multimem.ld_reduce); the owner writes the result to the
// switch, which copies it to every GPU (multimem.st). Only the GPUs' sends
// into the switch pay the protocol's hop latency.
#include <vector>

#include "sim/exec/schedule.hpp"

namespace collsim {

// `ranks` send their copies to switch participant `sw`, each after its own
// previous contribution has left (`streamed`, per rank, updated); returns the
// owner's receipt of the sum.
StepId switch_reduce(Schedule& s, const std::vector<int>& ranks, int sw, int owner, int channel, int chunk, Bytes bytes,
                     std::vector<StepId>& streamed);

// The switch receives the owner's store `stored` and copies it to every one of `ranks`.
void switch_multicast(Schedule& s, const std::vector<int>& ranks, int sw, StepId stored, int channel, int chunk,
                      Bytes bytes);

}  // namespace collsim
