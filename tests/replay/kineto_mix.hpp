#pragma once
// The collectives of an imported program by op: how many got a size (and their
// bytes) and how many kept their measured time. Shared by the Kineto tests.
#include <map>

#include "sim/replay/trace.hpp"

namespace collsim::test {

struct KinetoMix {
    std::map<CollOp, int> sized, unsized;
    std::map<CollOp, int64_t> bytes;
};

inline KinetoMix kineto_mix(const Program& p) {
    KinetoMix m;
    for (const TraceOp& op : p.ops) {
        if (op.kind != OpKind::collective) continue;
        if (op.collective.duration) ++m.unsized[op.collective.op];
        else {
            ++m.sized[op.collective.op];
            m.bytes[op.collective.op] += op.collective.bytes.count();
        }
    }
    return m;
}

}  // namespace collsim::test
