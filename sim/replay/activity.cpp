#include "sim/replay/activity.hpp"

#include <algorithm>

namespace collsim {

std::vector<Interval> merged(std::vector<Interval> v) {
    std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) {
        return a.begin < b.begin || (a.begin == b.begin && a.end < b.end);
    });
    std::vector<Interval> out;
    for (const Interval& i : v) {
        if (!(i.begin < i.end)) continue;
        if (!out.empty() && !(out.back().end < i.begin)) out.back().end = std::max(out.back().end, i.end);
        else out.push_back(i);
    }
    return out;
}

Time total(const std::vector<Interval>& m) {
    Time t{};
    for (const Interval& i : m) t += i.end - i.begin;
    return t;
}

Time overlap(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    Time t{};
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const Time lo = std::max(a[i].begin, b[j].begin), hi = std::min(a[i].end, b[j].end);
        if (lo < hi) t += hi - lo;
        if (a[i].end < b[j].end) ++i;
        else ++j;
    }
    return t;
}

RankActivity rank_activity(const Trace& trace, const ReplayResult& r, int rank) {
    RankActivity a;
    const Program& p = trace.program(rank);
    for (int s = 0; s < r.steps; ++s)
        for (OpIndex i = 0; i < p.ops.size(); ++i) {
            const OpTiming& t = r.timings[r.instance(rank, s, i, p.ops.size())];
            if (p.ops[i].kind == OpKind::compute && p.ops[i].compute.host) continue;
            (p.ops[i].kind == OpKind::compute ? a.compute : a.comm).push_back(Interval{t.start, t.end});
        }
    a.compute = merged(std::move(a.compute));
    a.comm = merged(std::move(a.comm));
    return a;
}

}  // namespace collsim
