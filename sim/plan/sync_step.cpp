#include "sim/plan/sync_step.hpp"

#include <algorithm>

namespace collsim {

OverlapTime bucketed_overlap(double window, const std::vector<double>& buckets, bool overlap) {
    double total = 0;
    for (double b : buckets) total += b;
    OverlapTime t;
    if (!overlap || buckets.empty()) {
        t.exposed = total;
        return t;
    }
    double free_at = 0;
    const double n = static_cast<double>(buckets.size());
    for (std::size_t i = 0; i < buckets.size(); ++i) {
        const double ready = window * (static_cast<double>(i) + 1) / n;
        free_at = std::max(free_at, ready) + buckets[i];
    }
    t.exposed = std::max(0.0, free_at - window);
    t.overlapped = total - t.exposed;
    return t;
}

OverlapTime hidden_behind(double window, double comm) {
    OverlapTime t;
    t.exposed = std::max(0.0, comm - window);
    t.overlapped = comm - t.exposed;
    return t;
}

}  // namespace collsim
