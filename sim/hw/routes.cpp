#include "sim/hw/routes.hpp"

#include <algorithm>
#include <deque>
#include <queue>
#include <set>
#include <stdexcept>

namespace collsim {

bool Routes::may_transit(DeviceId v, DeviceId src) const {
    return v == src || topo_.device(v).kind != DeviceKind::gpu;
}

// Maximum bottleneck bandwidth from src to every device (a Dijkstra variant
// that maximises the minimum link bandwidth instead of minimising a sum).
const std::vector<int64_t>& Routes::widest_from(DeviceId src) {
    auto it = widest_.find(src);
    if (it != widest_.end()) return it->second;
    const auto& g = topo_.graph();
    std::vector<int64_t> best(topo_.devices().size(), 0);
    best[src] = INT64_MAX;
    std::priority_queue<std::pair<int64_t, DeviceId>> frontier;
    frontier.push({INT64_MAX, src});
    while (!frontier.empty()) {
        auto [bw, v] = frontier.top();
        frontier.pop();
        if (bw < best[v] || !may_transit(v, src)) continue;
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
            DeviceId w = static_cast<DeviceId>(boost::target(*e, g));
            int64_t through = std::min(bw, topo_.link(Topology::link_of(g[*e].channel)).bandwidth.bps());
            if (through > best[w]) {
                best[w] = through;
                frontier.push({through, w});
            }
        }
    }
    return widest_.emplace(src, std::move(best)).first->second;
}

Routes::Dag Routes::build_dag(DeviceId src, int64_t floor_bps) const {
    const auto& g = topo_.graph();
    const std::size_t n = topo_.devices().size();
    Dag d{std::vector<int>(n, -1), std::vector<std::vector<ChannelId>>(n), std::vector<uint64_t>(n, 0)};
    d.hops[src] = 0;
    d.count[src] = 1;
    std::deque<DeviceId> queue{src};
    while (!queue.empty()) {
        DeviceId v = queue.front();
        queue.pop_front();
        if (!may_transit(v, src)) continue;
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
            ChannelId c = g[*e].channel;
            if (topo_.link(Topology::link_of(c)).bandwidth.bps() < floor_bps) continue;
            DeviceId w = static_cast<DeviceId>(boost::target(*e, g));
            if (d.hops[w] == -1) {
                d.hops[w] = d.hops[v] + 1;
                queue.push_back(w);
            }
            if (d.hops[w] == d.hops[v] + 1) {
                d.preds[w].push_back(c);
                uint64_t sum = d.count[w] + d.count[v];
                d.count[w] = sum < d.count[w] ? UINT64_MAX : sum;
            }
        }
    }
    return d;
}

const Routes::Dag& Routes::dag(DeviceId src, DeviceId dst) {
    if (src >= topo_.devices().size() || dst >= topo_.devices().size())
        throw std::out_of_range("route between unknown devices");
    int64_t floor_bps = widest_from(src)[dst];
    auto key = std::make_pair(src, floor_bps);
    auto it = dags_.find(key);
    if (it == dags_.end()) it = dags_.emplace(key, build_dag(src, floor_bps)).first;
    return it->second;
}

bool Routes::reachable(DeviceId src, DeviceId dst) { return path_count(src, dst) > 0; }

uint64_t Routes::path_count(DeviceId src, DeviceId dst) {
    if (src == dst) return 1;
    if (widest_from(src)[dst] == 0) return 0;
    return dag(src, dst).count[dst];
}

Path Routes::path(DeviceId src, DeviceId dst, uint64_t index) {
    Path p;
    if (src == dst) return p;
    uint64_t total = path_count(src, dst);
    if (total == 0) throw std::logic_error("no route between devices");
    const Dag& d = dag(src, dst);
    index %= total;
    // Unrank: walk back from dst, choosing the predecessor whose path count
    // range holds the index.
    DeviceId v = dst;
    std::vector<ChannelId> reversed;
    while (v != src) {
        for (ChannelId c : d.preds[v]) {
            uint64_t n = d.count[topo_.channel_source(c)];
            if (index < n) {
                reversed.push_back(c);
                v = topo_.channel_source(c);
                break;
            }
            index -= n;
        }
    }
    p.channels.assign(reversed.rbegin(), reversed.rend());
    p.bottleneck = Bandwidth::bytes_per_s(INT64_MAX);
    for (std::size_t i = 0; i < p.channels.size(); ++i) {
        const Link& l = topo_.link(Topology::link_of(p.channels[i]));
        p.latency += l.latency;
        if (i > 0) p.latency += topo_.device(topo_.channel_source(p.channels[i])).forwarding_latency;
        p.bottleneck = std::min(p.bottleneck, l.bandwidth);
        p.link_class = std::max(p.link_class, link_class(l.kind));
    }
    return p;
}

std::size_t Routes::first_hop_links(DeviceId src, DeviceId dst) {
    uint64_t total = path_count(src, dst);
    if (total == 0 || src == dst) return 0;
    // Walk each first hop's subtree lazily: the first-hop links are those
    // channels out of src that appear as the first channel of some path.
    std::set<LinkId> first;
    uint64_t cap = std::min<uint64_t>(total, 4096);
    for (uint64_t i = 0; i < cap; ++i) first.insert(Topology::link_of(path(src, dst, i).channels.front()));
    return first.size();
}

}  // namespace collsim
