#pragma once
// What the replayer needs to know about a program beyond its ops, computed
// once per distinct program (ranks that share a program share its plan):
// which ops wait on each op, each op's successor on its stream, and each
// collective's position in the sequence of calls on its communicator.
#include <cstdint>
#include <vector>

#include "sim/replay/trace.hpp"

namespace collsim {

inline constexpr OpIndex kNoOp = UINT32_MAX;

struct ProgramPlan {
    std::vector<std::vector<OpIndex>> dependents;  // ops that name this one in `after`
    std::vector<OpIndex> stream_next;              // next op on the same stream, kNoOp for the last
    std::vector<OpIndex> stream_first;             // per stream index: its first op (kNoOp: unused)
    std::vector<uint8_t> has_stream_prev;          // within one step
    std::vector<uint32_t> call_index;              // collectives: position among the calls on its communicator
    std::vector<uint32_t> calls_per_comm;          // per communicator, calls per step
};

ProgramPlan plan_program(const Program& p, std::size_t streams, std::size_t communicators);

}  // namespace collsim
