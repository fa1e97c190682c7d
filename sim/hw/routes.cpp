#include "sim/hw/routes.hpp"

#include <algorithm>
#include <queue>
#include <set>
#include <stdexcept>
#include <tuple>

#include "sim/core/hash.hpp"

namespace collsim {

namespace {
constexpr uint32_t kNoSlot = UINT32_MAX;

uint64_t saturating_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
}  // namespace

Routes::Routes(const Topology& topo)
    : topo_(topo),
      best_(topo.devices().size(), 0),
      level_(topo.devices().size(), -1),
      slot_(topo.devices().size(), kNoSlot) {}

bool Routes::may_transit(DeviceId v, DeviceId src) const {
    return v == src || topo_.device(v).kind != DeviceKind::gpu;
}

void Routes::check(DeviceId src, DeviceId dst) const {
    if (src >= topo_.devices().size() || dst >= topo_.devices().size())
        throw std::out_of_range("route between unknown devices");
}

// Maximum bottleneck bandwidth from src to dst: a Dijkstra variant that
// maximises the minimum link bandwidth, stopping when dst is settled.
int64_t Routes::widest(DeviceId src, DeviceId dst) {
    const auto& g = topo_.graph();
    best_[src] = INT64_MAX;
    touched_.push_back(src);
    std::priority_queue<std::pair<int64_t, DeviceId>> frontier;
    frontier.push({INT64_MAX, src});
    int64_t result = 0;
    while (!frontier.empty()) {
        auto [bw, v] = frontier.top();
        frontier.pop();
        if (bw < best_[v]) continue;
        if (v == dst) {
            result = bw;
            break;
        }
        if (!may_transit(v, src)) continue;
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
            DeviceId w = static_cast<DeviceId>(boost::target(*e, g));
            int64_t through = std::min(bw, topo_.link(Topology::link_of(g[*e].channel)).bandwidth.bps());
            if (through > best_[w]) {
                if (best_[w] == 0) touched_.push_back(w);
                best_[w] = through;
                frontier.push({through, w});
            }
        }
    }
    for (DeviceId v : touched_) best_[v] = 0;
    touched_.clear();
    return result;
}

Routes::Dag Routes::build_dag(DeviceId src, DeviceId dst, int64_t floor_bps) {
    const auto& g = topo_.graph();
    auto usable = [&](ChannelId c) { return topo_.link(Topology::link_of(c)).bandwidth.bps() >= floor_bps; };
    // Breadth-first levels from src over links at least `floor_bps` wide,
    // until every device one hop short of dst has been expanded.
    std::vector<DeviceId> queue{src};
    level_[src] = 0;
    touched_.push_back(src);
    for (std::size_t head = 0; head < queue.size(); ++head) {
        DeviceId v = queue[head];
        if (level_[dst] >= 0 && level_[v] >= level_[dst]) break;
        if (!may_transit(v, src)) continue;
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
            DeviceId w = static_cast<DeviceId>(boost::target(*e, g));
            if (level_[w] >= 0 || !usable(g[*e].channel)) continue;
            level_[w] = level_[v] + 1;
            touched_.push_back(w);
            queue.push_back(w);
        }
    }
    // Walk back from dst to keep only the devices on shortest paths.
    Dag d;
    std::vector<DeviceId> on_path{dst};
    slot_[dst] = 0;
    for (std::size_t i = 0; i < on_path.size(); ++i) {
        DeviceId v = on_path[i];
        if (level_[v] == 0) continue;
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
            DeviceId u = static_cast<DeviceId>(boost::target(*e, g));
            if (level_[u] != level_[v] - 1 || !may_transit(u, src) || !usable(g[*e].channel)) continue;
            if (slot_[u] == kNoSlot) {
                slot_[u] = 0;
                on_path.push_back(u);
            }
        }
    }
    std::sort(on_path.begin(), on_path.end(), [&](DeviceId a, DeviceId b) {
        return level_[a] != level_[b] ? level_[a] < level_[b] : a < b;
    });
    for (uint32_t i = 0; i < on_path.size(); ++i) slot_[on_path[i]] = i;
    d.vertex = on_path;
    d.hop.reserve(on_path.size());
    d.count.assign(on_path.size(), 0);
    d.pred_begin.push_back(0);
    for (uint32_t i = 0; i < on_path.size(); ++i) {
        DeviceId v = on_path[i];
        d.hop.push_back(level_[v]);
        if (i == 0) d.count[0] = 1;  // src
        // Incoming channels, in the graph's (declaration) order: the reverse
        // of each outgoing channel u <- v is u -> v.
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
            DeviceId u = static_cast<DeviceId>(boost::target(*e, g));
            if (slot_[u] == kNoSlot || level_[u] != level_[v] - 1 || !may_transit(u, src) ||
                !usable(g[*e].channel))
                continue;
            d.pred.push_back(g[*e].channel ^ 1u);
            d.pred_from.push_back(slot_[u]);
            d.count[i] = saturating_add(d.count[i], d.count[slot_[u]]);
        }
        d.pred_begin.push_back(static_cast<uint32_t>(d.pred.size()));
    }
    for (DeviceId v : on_path) slot_[v] = kNoSlot;
    for (DeviceId v : touched_) level_[v] = -1;
    touched_.clear();
    return d;
}

const Routes::Dag* Routes::dag(DeviceId src, DeviceId dst) {
    check(src, dst);
    auto key = std::make_pair(src, dst);
    auto it = dags_.find(key);
    if (it == dags_.end()) {
        const int64_t floor_bps = widest(src, dst);
        it = dags_.emplace(key, floor_bps == 0 ? Dag{} : build_dag(src, dst, floor_bps)).first;
    }
    return it->second.vertex.empty() ? nullptr : &it->second;
}

bool Routes::reachable(DeviceId src, DeviceId dst) { return path_count(src, dst) > 0; }

uint64_t Routes::path_count(DeviceId src, DeviceId dst) {
    check(src, dst);
    if (src == dst) return 1;
    const Dag* d = dag(src, dst);
    return d ? d->count.back() : 0;
}

int Routes::hops(DeviceId src, DeviceId dst) {
    check(src, dst);
    if (src == dst) return 0;
    const Dag* d = dag(src, dst);
    return d ? d->hop.back() : -1;
}

Path Routes::finish_path(std::vector<ChannelId> channels) const {
    Path p;
    p.channels = std::move(channels);
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

Path Routes::path(DeviceId src, DeviceId dst, uint64_t index) {
    check(src, dst);
    if (src == dst) return Path{};
    const Dag* d = dag(src, dst);
    if (!d) throw std::logic_error("no route between devices");
    index %= d->count.back();
    // Unrank: walk back from dst, choosing the predecessor whose path count
    // range holds the index.
    std::vector<ChannelId> reversed;
    for (uint32_t v = static_cast<uint32_t>(d->vertex.size() - 1); v != 0;) {
        for (uint32_t k = d->pred_begin[v]; k < d->pred_begin[v + 1]; ++k) {
            uint64_t n = d->count[d->pred_from[k]];
            if (index < n) {
                reversed.push_back(d->pred[k]);
                v = d->pred_from[k];
                break;
            }
            index -= n;
        }
    }
    return finish_path(std::vector<ChannelId>(reversed.rbegin(), reversed.rend()));
}

std::size_t Routes::first_hop_links(DeviceId src, DeviceId dst) {
    check(src, dst);
    const Dag* d = src == dst ? nullptr : dag(src, dst);
    if (!d) return 0;
    std::set<LinkId> first;
    for (std::size_t k = 0; k < d->pred.size(); ++k)
        if (d->pred_from[k] == 0) first.insert(Topology::link_of(d->pred[k]));
    return first.size();
}

Path Routes::least_loaded_path(DeviceId src, DeviceId dst, const std::function<uint64_t(ChannelId)>& load,
                               uint64_t tie_break) {
    check(src, dst);
    if (src == dst) return Path{};
    const Dag* d = dag(src, dst);
    if (!d) throw std::logic_error("no route between devices");
    // Minimax over the DAG in hop order: the best path into each device, by
    // (busiest channel, total load, hashed channel) lexicographically.
    struct Best {
        uint64_t max = 0, sum = 0, key = 0;
        uint32_t via = UINT32_MAX;  // index into pred
    };
    std::vector<Best> best(d->vertex.size());
    for (uint32_t v = 1; v < d->vertex.size(); ++v) {
        for (uint32_t k = d->pred_begin[v]; k < d->pred_begin[v + 1]; ++k) {
            const Best& from = best[d->pred_from[k]];
            const uint64_t l = load(d->pred[k]);
            Best cand{std::max(from.max, l), from.sum + l, mix64(tie_break ^ (uint64_t{d->pred[k]} << 20)), k};
            Best& cur = best[v];
            if (cur.via == UINT32_MAX || std::tie(cand.max, cand.sum, cand.key) < std::tie(cur.max, cur.sum, cur.key))
                cur = cand;
        }
    }
    std::vector<ChannelId> reversed;
    for (uint32_t v = static_cast<uint32_t>(d->vertex.size() - 1); v != 0; v = d->pred_from[best[v].via])
        reversed.push_back(d->pred[best[v].via]);
    return finish_path(std::vector<ChannelId>(reversed.rbegin(), reversed.rend()));
}

}  // namespace collsim
