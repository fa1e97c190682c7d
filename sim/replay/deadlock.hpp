#pragma once
// A trace that deadlocks by itself (no fault stopped it) is bad input: the
// ops that wait, each at its place in the trace, and what never came.
#include "sim/replay/replay_result.hpp"

namespace collsim {

// Throws InputErrors for the first ten stuck collectives and transfers of
// `h`; `never_started` ops are reported when nothing is stuck in communication.
[[noreturn]] void throw_deadlock(const ReplayHang& h, const Trace& trace, std::size_t never_started);

}  // namespace collsim
