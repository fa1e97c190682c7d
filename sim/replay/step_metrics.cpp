#include "sim/replay/step_metrics.hpp"

#include "sim/replay/activity.hpp"

namespace collsim {

namespace {
double share(Time part, Time whole) {
    return whole.ps() > 0 ? static_cast<double>(part.ps()) / static_cast<double>(whole.ps()) : 0.0;
}
}  // namespace

StepMetrics step_metrics(const Trace& trace, const ReplayResult& r) {
    StepMetrics m;
    m.span = r.makespan;
    m.step_time = Time::from_ps(r.makespan.ps() / r.steps);
    for (int rank = 0; rank < r.ranks; ++rank) {
        const RankActivity a = rank_activity(trace, r, rank);
        RankBreakdown b;
        b.rank = rank;
        b.compute = total(a.compute);
        b.overlapped_comm = overlap(a.compute, a.comm);
        b.exposed_comm = total(a.comm) - b.overlapped_comm;
        b.idle = m.span - b.compute - b.exposed_comm;
        b.fractions = Fractions{share(b.compute, m.span), share(b.exposed_comm, m.span),
                                share(b.overlapped_comm, m.span), share(b.idle, m.span)};
        m.average.compute += b.fractions.compute / r.ranks;
        m.average.exposed_comm += b.fractions.exposed_comm / r.ranks;
        m.average.overlapped_comm += b.fractions.overlapped_comm / r.ranks;
        m.average.idle += b.fractions.idle / r.ranks;
        if (m.ranks.empty() || b.compute < m.ranks[static_cast<std::size_t>(m.worst_rank)].compute) m.worst_rank = rank;
        m.ranks.push_back(b);
    }
    return m;
}

}  // namespace collsim
