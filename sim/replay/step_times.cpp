#include "sim/replay/step_times.hpp"

#include <algorithm>

namespace collsim {

namespace {
// The nearest-rank percentile of sorted times.
Time percentile(const std::vector<Time>& sorted, int pct) {
    const std::size_t n = sorted.size();
    const std::size_t rank = (n * static_cast<std::size_t>(pct) + 99) / 100;
    return sorted[std::max<std::size_t>(rank, 1) - 1];
}
}  // namespace

StepTimes step_times(const Trace& trace, const ReplayResult& r) {
    std::vector<Time> ends(static_cast<std::size_t>(r.steps));
    for (int rank = 0; rank < r.ranks; ++rank) {
        const std::size_t ops = trace.program(rank).ops.size();
        for (int s = 0; s < r.steps; ++s)
            for (OpIndex op = 0; op < ops; ++op) {
                const Time end = r.timings[r.instance(rank, s, op, ops)].end;
                ends[static_cast<std::size_t>(s)] = std::max(ends[static_cast<std::size_t>(s)], end);
            }
    }
    StepTimes t;
    Time before{};
    for (Time end : ends) {
        // A step can end before the previous one when ranks run ahead of a late peer's
        // earlier step; it then took no time of its own.
        t.each.push_back(end > before ? end - before : Time{});
        before = std::max(before, end);
    }
    std::vector<Time> sorted = t.each;
    std::sort(sorted.begin(), sorted.end());
    t.p50 = percentile(sorted, 50);
    t.p99 = percentile(sorted, 99);
    t.max = sorted.back();
    t.mean = Time::from_ps(before.ps() / r.steps);
    return t;
}

}  // namespace collsim
