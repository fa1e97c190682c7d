#include "sim/replay/replay_tier.hpp"

namespace collsim {

ModelTier replay_tier(const Trace& trace, ModelTier asked, int steps) {
    if (asked != ModelTier::automatic) return asked;
    int64_t calls = 0;
    for (int r = 0; r < trace.ranks; ++r)
        for (const TraceOp& op : trace.program(r).ops) calls += op.kind == OpKind::collective ? 1 : 0;
    return calls * steps > kAutoChunkLevelCalls ? ModelTier::fluid : ModelTier::automatic;
}

}  // namespace collsim
