#pragma once
// Bubbles: the intervals in which a rank neither computed nor communicated,
// each with its cause, read off what ended it. When a compute op starts at the
// end of a bubble, it had waited for the dependency that finished last (a
// collective or a transfer); when communication starts there, it had waited
// for the last peer to arrive. A bubble that reaches the end of the replay is
// the rank waiting for the slowest rank to finish.
#include <string>
#include <vector>

#include "sim/replay/replay_result.hpp"

namespace collsim {

enum class BubbleCause { dependency, late_peer, end_of_run };
std::string_view to_string(BubbleCause c);

struct Bubble {
    int rank = 0;
    int step = 0;  // of the op that ended it
    Time start, end;
    BubbleCause cause = BubbleCause::dependency;
    std::string op;          // the op that waited ("" at the end of the run)
    std::string waited_for;  // the communication (or rank) it waited for
};

// Every bubble of at least `shortest`, ordered by rank, then time.
std::vector<Bubble> find_bubbles(const Trace& trace, const ReplayResult& r, Time shortest = Time{});

}  // namespace collsim
