#include "sim/hw/max_flow.hpp"

#include <algorithm>

namespace collsim {

void MaxFlow::add_arc(uint32_t u, uint32_t v, int64_t capacity) { pending_.push_back({u, v, capacity}); }

// Lays the arcs out by tail vertex (compressed rows), each next to nothing
// but knowing its reverse arc's position.
void MaxFlow::freeze() {
    const std::size_t n = first_.size() - 1;
    std::vector<uint32_t> degree(n, 0);
    for (const auto& p : pending_) ++degree[p.u], ++degree[p.v];
    for (std::size_t v = 0; v < n; ++v) first_[v + 1] = first_[v] + degree[v];
    std::vector<uint32_t> fill(first_.begin(), first_.end() - 1);
    to_.resize(first_[n]);
    reverse_.resize(first_[n]);
    capacity_.resize(first_[n]);
    for (const auto& p : pending_) {
        const uint32_t a = fill[p.u]++, b = fill[p.v]++;
        to_[a] = p.v, capacity_[a] = p.capacity, reverse_[a] = b;
        to_[b] = p.u, capacity_[b] = 0, reverse_[b] = a;
    }
    pending_.clear();
    pending_.shrink_to_fit();
}

bool MaxFlow::levels(uint32_t source, uint32_t sink) {
    std::fill(level_.begin(), level_.end(), -1);
    std::vector<uint32_t> queue{source};
    level_[source] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const uint32_t v = queue[head];
        for (uint32_t a = first_[v]; a < first_[v + 1]; ++a) {
            if (capacity_[a] <= 0 || level_[to_[a]] >= 0) continue;
            level_[to_[a]] = level_[v] + 1;
            queue.push_back(to_[a]);
        }
    }
    return level_[sink] >= 0;
}

int64_t MaxFlow::blocking_flow(uint32_t source, uint32_t sink) {
    next_arc_.assign(first_.begin(), first_.end() - 1);
    std::vector<uint32_t> path;  // arcs from source
    int64_t total = 0;
    uint32_t v = source;
    for (;;) {
        if (v == sink) {
            int64_t push = INT64_MAX;
            for (uint32_t a : path) push = std::min(push, capacity_[a]);
            for (uint32_t a : path) capacity_[a] -= push, capacity_[reverse_[a]] += push;
            total += push;
            // Back up to the tail of the first saturated arc.
            std::size_t keep = 0;
            while (capacity_[path[keep]] > 0) ++keep;
            path.resize(keep);
            v = keep == 0 ? source : to_[path.back()];
            continue;
        }
        uint32_t& a = next_arc_[v];
        while (a < first_[v + 1] && (capacity_[a] <= 0 || level_[to_[a]] != level_[v] + 1)) ++a;
        if (a < first_[v + 1]) {
            path.push_back(a);
            v = to_[a];
            continue;
        }
        // Dead end: no flow passes v in this phase.
        level_[v] = -1;
        if (path.empty()) return total;
        path.pop_back();
        v = path.empty() ? source : to_[path.back()];
        ++next_arc_[v];
    }
}

int64_t MaxFlow::run(uint32_t source, uint32_t sink) {
    freeze();
    level_.assign(first_.size() - 1, -1);
    int64_t flow = 0;
    while (levels(source, sink)) flow += blocking_flow(source, sink);
    return flow;
}

}  // namespace collsim
