#include "sim/faults/diagnose.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <iterator>
#include <map>
#include <set>

#include <fmt/format.h>

namespace collsim {

namespace {
double median(std::vector<double> v) {
    if (v.empty()) return 0;
    const std::size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    double m = v[mid];
    if (v.size() % 2 == 0) m = (m + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid))) / 2;
    return m;
}

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(std::min<double>(static_cast<double>(v.size() - 1), std::ceil(q * static_cast<double>(v.size())) - 1))];
}

struct LateTally {
    int late = 0;
    double lateness_us = 0, sigmas = 0;
};

// The NICs and switches a GPU reaches before the network: where ranks that
// share one stall together.
std::set<DeviceId> attachments(const Topology& topo, DeviceId gpu) {
    std::set<DeviceId> seen{gpu}, out;
    std::deque<DeviceId> queue{gpu};
    const auto& g = topo.graph();
    while (!queue.empty()) {
        DeviceId v = queue.front();
        queue.pop_front();
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
            DeviceId w = static_cast<DeviceId>(boost::target(*e, g));
            const Device& d = topo.device(w);
            if (seen.count(w) || d.kind == DeviceKind::gpu) continue;
            seen.insert(w);
            if (d.kind == DeviceKind::nic || d.kind == DeviceKind::network_switch) out.insert(w);
            // Stop at the first network switch (the leaf): beyond it everyone shares everything.
            if (d.kind != DeviceKind::network_switch) queue.push_back(w);
        }
    }
    return out;
}
}  // namespace

Diagnosis diagnose(const std::vector<RankTiming>& timings, const Topology* topo) {
    Diagnosis dx;
    std::map<int64_t, std::vector<const RankTiming*>> by_collective;
    std::set<int> ranks;
    for (const auto& t : timings) {
        by_collective[t.collective].push_back(&t);
        ranks.insert(t.rank);
    }
    dx.ranks = static_cast<int>(ranks.size());
    dx.collectives = static_cast<int>(by_collective.size());
    for (const auto& [id, rows] : by_collective) {
        std::set<int> present;
        for (const RankTiming* r : rows) present.insert(r->rank);
        if (present.size() == ranks.size()) continue;
        MissingRows m{id, rows.front()->name, {}};
        std::set_difference(ranks.begin(), ranks.end(), present.begin(), present.end(), std::back_inserter(m.ranks));
        dx.missing_rows += static_cast<int64_t>(m.ranks.size());
        dx.missing.push_back(std::move(m));
    }

    std::map<int, LateTally> tally;
    std::vector<double> skews;
    int total_late = 0;
    for (const auto& [id, rows] : by_collective) {
        if (rows.size() < 3) continue;  // no notion of "late" between two ranks
        std::vector<double> arrivals, exits;
        for (const RankTiming* r : rows) arrivals.push_back(r->enter_us), exits.push_back(r->exit_us);
        const double m = median(arrivals);
        std::vector<double> dev;
        for (double a : arrivals) dev.push_back(std::fabs(a - m));
        // Floor the spread so perfectly synchronous logs do not make every
        // microsecond of rounding look significant.
        const double duration = median(exits) - m;
        const double sigma = std::max({1.4826 * median(dev), 0.5, 1e-3 * std::max(duration, 0.0)});
        skews.push_back(*std::max_element(arrivals.begin(), arrivals.end()) - m);
        for (const RankTiming* r : rows) {
            const double late = r->enter_us - m;
            if (late <= kLateSigmas * sigma) continue;
            LateTally& t = tally[r->rank];
            ++t.late;
            ++total_late;
            t.lateness_us += late;
            t.sigmas += late / sigma;
        }
    }
    dx.median_skew_us = median(skews);
    dx.p99_skew_us = percentile(skews, 0.99);
    dx.max_skew_us = skews.empty() ? 0 : *std::max_element(skews.begin(), skews.end());

    for (const auto& [rank, t] : tally) {
        // Background: late arrivals per rank among all the others.
        const double background = dx.ranks > 1 ? static_cast<double>(total_late - t.late) / (dx.ranks - 1) : 0.0;
        if (t.late < 2 || t.late < 5 * background) continue;
        Suspect s;
        s.rank = rank;
        s.late_collectives = t.late;
        s.confidence = std::clamp((t.late - background) / t.late, 0.0, 1.0);
        s.mean_lateness_us = t.lateness_us / t.late;
        s.mean_sigmas = t.sigmas / t.late;
        s.evidence = fmt::format("late at {} of {} collectives by {:.1f} us on average ({:.0f} robust sigmas after the "
                                 "median arrival); a rank is late there {:.2f} times on average",
                                 t.late, dx.collectives, s.mean_lateness_us, s.mean_sigmas, background);
        dx.culprits.push_back(s);
    }
    std::sort(dx.culprits.begin(), dx.culprits.end(), [](const Suspect& a, const Suspect& b) {
        return a.confidence != b.confidence ? a.confidence > b.confidence : a.rank < b.rank;
    });

    if (topo && dx.culprits.size() >= 2) {
        // A component is suspect when several named ranks use it and every rank
        // that uses it is named: a punctual user clears it.
        std::set<int> named;
        for (const Suspect& s : dx.culprits) named.insert(s.rank);
        std::map<DeviceId, std::vector<int>> users;
        for (int r : ranks) {
            if (static_cast<std::size_t>(r) >= topo->gpus().size()) continue;
            for (DeviceId d : attachments(*topo, topo->gpus()[static_cast<std::size_t>(r)])) users[d].push_back(r);
        }
        for (const auto& [d, rs] : users) {
            const bool all_named = std::all_of(rs.begin(), rs.end(), [&](int r) { return named.count(r) > 0; });
            if (rs.size() >= 2 && all_named) dx.shared.push_back(SharedComponent{topo->device(d).name, rs});
        }
    }
    if (dx.culprits.empty())
        dx.verdict = fmt::format("no culprit: arrival skew stays within noise (median {:.1f} us, p99 {:.1f} us)",
                                 dx.median_skew_us, dx.p99_skew_us);
    else
        dx.verdict = fmt::format("{} likely culprit rank(s), most likely rank {}", dx.culprits.size(),
                                 dx.culprits.front().rank);
    // Skew is only measured among the rows there are: an absent rank is said first.
    if (!dx.missing.empty())
        dx.verdict = fmt::format("incomplete timings: {} row(s) missing, first rank {} at collective {} (a row lost "
                                 "from the file, or a rank that never reached the collective); among the rows given: {}",
                                 dx.missing_rows, dx.missing.front().ranks.front(),
                                 dx.missing.front().name.empty() ? std::to_string(dx.missing.front().collective)
                                                                 : dx.missing.front().name,
                                 dx.verdict);
    return dx;
}

}  // namespace collsim
