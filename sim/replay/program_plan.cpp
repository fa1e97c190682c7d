#include "sim/replay/program_plan.hpp"

namespace collsim {

ProgramPlan plan_program(const Program& p, std::size_t streams, std::size_t communicators) {
    const std::size_t n = p.ops.size();
    ProgramPlan plan;
    plan.dependents.resize(n);
    plan.stream_next.assign(n, kNoOp);
    plan.stream_first.assign(streams, kNoOp);
    plan.has_stream_prev.assign(n, 0);
    plan.call_index.assign(n, 0);
    plan.calls_per_comm.assign(communicators, 0);
    std::vector<OpIndex> last(streams, kNoOp);
    for (OpIndex i = 0; i < n; ++i) {
        const TraceOp& op = p.ops[i];
        for (OpIndex a : op.after) plan.dependents[a].push_back(i);
        if (last[op.stream] == kNoOp) plan.stream_first[op.stream] = i;
        else {
            plan.stream_next[last[op.stream]] = i;
            plan.has_stream_prev[i] = 1;
        }
        last[op.stream] = i;
        if (op.kind == OpKind::collective) plan.call_index[i] = plan.calls_per_comm[op.collective.comm]++;
    }
    return plan;
}

}  // namespace collsim
