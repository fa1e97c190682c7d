#include "sim/replay/bubbles.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "sim/replay/activity.hpp"

namespace collsim {

namespace {
struct Start {
    Time at;
    int step = 0;
    OpIndex op = 0;
};

std::string describe_comm(const Trace& trace, const ReplayResult& r, const TraceOp& op, const OpTiming& t) {
    if (op.kind == OpKind::collective) {
        const CollectiveRun& c = r.collectives[t.run];
        return fmt::format("{} '{}' on {}", to_string(c.kind), op.name, trace.communicators[c.comm].name);
    }
    const P2PRun& p = r.p2p[t.run];
    return fmt::format("{} '{}' (rank {} to {})", to_string(op.kind), op.name, p.from, p.to);
}

Bubble explain(const Trace& trace, const ReplayResult& r, int rank, const Start& s) {
    const Program& p = trace.program(rank);
    const TraceOp& op = p.ops[s.op];
    const OpTiming& t = r.timings[r.instance(rank, s.step, s.op, p.ops.size())];
    Bubble b;
    b.rank = rank;
    b.step = s.step;
    b.op = op.name;
    if (op.kind != OpKind::compute && t.ready < t.start) {
        b.cause = BubbleCause::late_peer;
        if (op.kind == OpKind::collective) {
            const CollectiveRun& c = r.collectives[t.run];
            b.waited_for = fmt::format("rank {} to reach {}", c.last_rank, describe_comm(trace, r, op, t));
        } else {
            const P2PRun& x = r.p2p[t.run];
            const bool sender = x.from == rank;
            b.waited_for = fmt::format("rank {} to reach {} '{}'", sender ? x.to : x.from, sender ? "recv" : "send",
                                       sender ? x.recv_name : x.name);
        }
        return b;
    }
    b.cause = BubbleCause::dependency;
    if (t.blocker == kNoInstance) return b;
    // The blocker is on the same rank: find its op from the instance number.
    const InstanceId base = r.first_instance[static_cast<std::size_t>(rank)];
    const OpIndex bop = static_cast<OpIndex>((t.blocker - base) % p.ops.size());
    const TraceOp& blocker = p.ops[bop];
    b.waited_for = blocker.kind == OpKind::compute ? fmt::format("compute '{}'", blocker.name)
                                                   : describe_comm(trace, r, blocker, r.timings[t.blocker]);
    return b;
}
}  // namespace

std::string_view to_string(BubbleCause c) {
    switch (c) {
        case BubbleCause::dependency: return "dependency";
        case BubbleCause::late_peer: return "late peer";
        case BubbleCause::end_of_run: return "end of run";
    }
    return "?";
}

std::vector<Bubble> find_bubbles(const Trace& trace, const ReplayResult& r, Time shortest) {
    std::vector<Bubble> out;
    int slowest = 0;
    for (int rank = 0; rank < r.ranks; ++rank) {
        const Program& p = trace.program(rank);
        Time last{};
        for (int s = 0; s < r.steps; ++s)
            for (OpIndex i = 0; i < p.ops.size(); ++i)
                last = std::max(last, r.timings[r.instance(rank, s, i, p.ops.size())].end);
        if (last == r.makespan) {
            slowest = rank;
            break;
        }
    }
    for (int rank = 0; rank < r.ranks; ++rank) {
        const Program& p = trace.program(rank);
        const RankActivity a = rank_activity(trace, r, rank);
        std::vector<Interval> busy = a.compute;
        busy.insert(busy.end(), a.comm.begin(), a.comm.end());
        busy = merged(std::move(busy));
        std::vector<Start> starts;
        for (int s = 0; s < r.steps; ++s)
            for (OpIndex i = 0; i < p.ops.size(); ++i)
                starts.push_back(Start{r.timings[r.instance(rank, s, i, p.ops.size())].start, s, i});
        // By time; at equal times compute first (it is what a bubble delays most visibly), then op order.
        std::sort(starts.begin(), starts.end(), [&](const Start& x, const Start& y) {
            if (x.at != y.at) return x.at < y.at;
            const bool cx = p.ops[x.op].kind == OpKind::compute, cy = p.ops[y.op].kind == OpKind::compute;
            if (cx != cy) return cx;
            return std::tie(x.step, x.op) < std::tie(y.step, y.op);
        });
        Time cursor{};
        auto gap = [&](Time from, Time to) {
            if (!(from < to) || to - from < shortest) return;
            auto it = std::lower_bound(starts.begin(), starts.end(), to,
                                       [](const Start& s, Time t) { return s.at < t; });
            Bubble b;
            if (it != starts.end() && it->at == to) {
                b = explain(trace, r, rank, *it);
            } else {
                b.rank = rank;
                b.step = r.steps - 1;
                b.cause = BubbleCause::end_of_run;
                b.waited_for = fmt::format("rank {} to finish", slowest);
            }
            b.start = from;
            b.end = to;
            out.push_back(std::move(b));
        };
        for (const Interval& i : busy) {
            gap(cursor, i.begin);
            cursor = i.end;
        }
        gap(cursor, r.makespan);
    }
    return out;
}

}  // namespace collsim
