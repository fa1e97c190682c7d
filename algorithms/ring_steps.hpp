#pragma once
// Ring steps as the ring and the hierarchical algorithms build them: in step
// s, position i of the ring sends piece (i + shift - s) mod len to position
// i+1, which adds it to its own (reduce-scatter) or takes it (all-gather). A
// piece may span several chunks, each its own transfer.
//
// A ring over thousands of ranks has millions of steps per channel. Given
// `groups`, the steps are merged into that many rounds: in each, a position
// sends the pieces of all the round's steps as one transfer. Such a lumped
// schedule keeps the ring's data path and per-hop loads, so it times the ring
// (paying each merged step's hop latency: Schedule::latency_scale), but it
// no longer moves pieces individually and is not for symbolic checks.
#include <functional>
#include <vector>

#include "sim/exec/schedule.hpp"

namespace collsim {

struct RingSteps {
    std::vector<int> ring;  // ranks in ring order
    int steps = 0;
    bool reduce = false;
    int shift = 0;
    int channel = 0;
    int chunks_per_piece = 1;
    std::function<int(int piece, int part)> chunk;
    std::function<Bytes(int piece, int part)> bytes;
    int groups = 0;  // > 0 and < steps: merge the steps into this many rounds, evenly
};

// Adds the steps. last[rank]: the step after which that rank's next send may
// start (kNoStep: none yet); updated to each rank's last receive.
void add_ring_steps(Schedule& s, const RingSteps& r, std::vector<StepId>& last);

}  // namespace collsim
