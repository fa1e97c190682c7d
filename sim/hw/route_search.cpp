#include "sim/hw/route_search.hpp"

#include <algorithm>
#include <tuple>

namespace collsim {

RouteSearch::RouteSearch(const Topology& topo) : topo_(topo), mark_(topo.devices().size(), 0) {
    for (Side& s : side_) {
        s.bw.assign(topo.devices().size(), 0);
        s.hops.assign(topo.devices().size(), -1);
    }
}

void RouteSearch::Side::reset() {
    for (DeviceId v : touched) bw[v] = 0, hops[v] = -1;
    touched.clear();
}

// Bidirectional max-bottleneck Dijkstra, each side ordered by (bottleneck
// descending, hops ascending) so equal-bandwidth regions grow like BFS balls.
// Meeting at v gives a path of bottleneck min(forward[v], backward[v]); once
// the best meeting is at least the smaller of the two sides' next keys, no
// unexplored path can beat it (every vertex of a wider path would already be
// settled on the side whose next key is below that width).
int64_t RouteSearch::widest(DeviceId src, DeviceId dst) {
    // Max-heaps over queue_ (std::priority_queue's order, storage kept).
    auto& queue = queue_;
    const DeviceId origin[2] = {src, dst};
    for (int i = 0; i < 2; ++i) {
        side_[i].bw[origin[i]] = INT64_MAX;
        side_[i].hops[origin[i]] = 0;
        side_[i].touched.push_back(origin[i]);
        queue[i].assign(1, Key{INT64_MAX, 0, origin[i]});
    }
    auto top = [&](int i) -> const Key* {
        while (!queue[i].empty()) {
            const auto& [bw, neg_hops, v] = queue[i].front();
            if (bw == side_[i].bw[v] && -neg_hops == side_[i].hops[v]) return &queue[i].front();
            std::pop_heap(queue[i].begin(), queue[i].end());  // superseded entry
            queue[i].pop_back();
        }
        return nullptr;
    };
    const auto& g = topo_.graph();
    int64_t best = 0;
    for (;;) {
        const Key* t[2] = {top(0), top(1)};
        if (!t[0] || !t[1] || best >= std::min(std::get<0>(*t[0]), std::get<0>(*t[1]))) break;
        const int i = *t[0] >= *t[1] ? 0 : 1;
        const auto [bw, neg_hops, v] = *t[i];
        std::pop_heap(queue[i].begin(), queue[i].end());
        queue[i].pop_back();
        Side& mine = side_[i];
        const Side& other = side_[1 - i];
        if (!may_transit(v, origin[i])) continue;
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
            const auto w = static_cast<DeviceId>(boost::target(*e, g));
            const int64_t through = std::min(bw, link_bps(g[*e].channel));
            const int hops = 1 - neg_hops;
            if (through < mine.bw[w] || (through == mine.bw[w] && hops >= mine.hops[w])) continue;
            if (mine.bw[w] == 0) mine.touched.push_back(w);
            mine.bw[w] = through;
            mine.hops[w] = hops;
            queue[i].emplace_back(through, -hops, w);
            std::push_heap(queue[i].begin(), queue[i].end());
            if (other.bw[w] > 0 && (w == src || w == dst || topo_.device(w).kind != DeviceKind::gpu))
                best = std::max(best, std::min(through, other.bw[w]));
        }
    }
    side_[0].reset();
    side_[1].reset();
    return best;
}

// Bidirectional BFS over wide-enough links, a whole level at a time from the
// side with the smaller frontier, until the balls meet. Then the meeting
// devices at the least total distance H lie on every shortest path, and the
// rest of the paths are found by walking back along each side's levels.
void RouteSearch::shortest_paths(DeviceId src, DeviceId dst, int64_t floor_bps, std::vector<DeviceId>& vertex,
                                 std::vector<int>& hop) {
    const auto& g = topo_.graph();
    const DeviceId origin[2] = {src, dst};
    auto& frontier = frontier_;
    for (int i = 0; i < 2; ++i) {
        side_[i].hops[origin[i]] = 0;
        side_[i].touched.push_back(origin[i]);
        frontier[i].assign(1, origin[i]);
    }
    vertex.clear();
    hop.clear();
    auto valid_middle = [&](DeviceId v) { return v == src || v == dst || topo_.device(v).kind != DeviceKind::gpu; };
    bool met = src == dst;
    while (!met && !frontier[0].empty() && !frontier[1].empty()) {
        const int i = frontier[0].size() <= frontier[1].size() ? 0 : 1;
        Side& mine = side_[i];
        std::vector<DeviceId>& next = next_;
        next.clear();
        for (DeviceId v : frontier[i]) {
            if (!may_transit(v, origin[i])) continue;
            for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
                const auto w = static_cast<DeviceId>(boost::target(*e, g));
                if (mine.hops[w] >= 0 || link_bps(g[*e].channel) < floor_bps) continue;
                mine.hops[w] = mine.hops[v] + 1;
                mine.touched.push_back(w);
                next.push_back(w);
                met = met || (side_[1 - i].hops[w] >= 0 && valid_middle(w));
            }
        }
        std::swap(frontier[i], next);
    }
    if (met) {
        const auto& fwd = side_[0].hops;
        const auto& bwd = side_[1].hops;
        int h = INT32_MAX;
        for (DeviceId v : side_[0].touched)
            if (bwd[v] >= 0 && valid_middle(v)) h = std::min(h, fwd[v] + bwd[v]);
        std::vector<DeviceId>& on_path = on_path_;
        on_path.clear();
        for (DeviceId v : side_[0].touched)
            if (bwd[v] >= 0 && valid_middle(v) && fwd[v] + bwd[v] == h) on_path.push_back(v), mark_[v] = 1;
        // Walk toward src along forward levels, toward dst along backward ones.
        for (std::size_t k = 0; k < on_path.size(); ++k) {
            const DeviceId v = on_path[k];
            for (int i = 0; i < 2; ++i) {
                const auto& level = side_[i].hops;
                if (level[v] <= 0) continue;
                for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
                    const auto u = static_cast<DeviceId>(boost::target(*e, g));
                    if (mark_[u] || level[u] != level[v] - 1 || !may_transit(u, origin[i]) ||
                        link_bps(g[*e].channel) < floor_bps)
                        continue;
                    mark_[u] = 1;
                    on_path.push_back(u);
                }
            }
        }
        std::vector<std::pair<int, DeviceId>>& by_hop = by_hop_;
        by_hop.clear();
        for (DeviceId v : on_path) {
            by_hop.emplace_back(fwd[v] >= 0 ? fwd[v] : h - bwd[v], v);
            mark_[v] = 0;
        }
        std::sort(by_hop.begin(), by_hop.end());
        for (auto [h_v, v] : by_hop) vertex.push_back(v), hop.push_back(h_v);
    }
    side_[0].reset();
    side_[1].reset();
}

}  // namespace collsim
