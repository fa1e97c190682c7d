#pragma once
// Whole-trace checks that no single op can make: every collective's ranks are
// in a group of its communicator and issue the same sequence of collectives on
// it (as NCCL requires); every send has its receive; no op waits on itself
// through `after` and stream order. Throws InputErrors, each at an op's
// position in the trace file.
#include "sim/replay/trace.hpp"

namespace collsim {

void check_trace(const Trace& t);

}  // namespace collsim
