#include "sim/hw/routes.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <tuple>

#include "sim/core/random.hpp"
#include "sim/hw/staging.hpp"

namespace collsim {

namespace {
constexpr uint32_t kNoSlot = UINT32_MAX;

uint64_t saturating_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
uint64_t saturating_mul(uint64_t a, uint64_t b) { return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b; }
}  // namespace

Routes::Routes(const Topology& topo)
    : topo_(topo),
      search_(topo),
      slot_(topo.devices().size(), kNoSlot),
      node_(node_of_devices(topo)),
      home_(collsim::home_nics(topo)) {}

void Routes::check(DeviceId src, DeviceId dst) const {
    if (src >= topo_.devices().size() || dst >= topo_.devices().size())
        throw std::out_of_range("route between unknown devices");
}

bool Routes::foreign_nic(DeviceId v, DeviceId src, DeviceId dst) const {
    if (topo_.device(v).kind != DeviceKind::nic) return false;
    for (DeviceId end : {src, dst}) {
        const auto& own = home_[end];
        if (node_[v] == node_[end] && !own.empty() && std::find(own.begin(), own.end(), v) == own.end()) return true;
    }
    return false;
}

Routes::Dag Routes::build_dag(DeviceId src, DeviceId dst, int64_t floor_bps, bool own_nics) {
    const auto& g = topo_.graph();
    RouteSearch::Layers layers = search_.shortest_paths(src, dst, floor_bps);
    Dag d;
    d.vertex = std::move(layers.vertex);
    d.hop = std::move(layers.hop);
    for (uint32_t i = 0; i < d.vertex.size(); ++i) slot_[d.vertex[i]] = i;
    d.count.assign(d.vertex.size(), 0);
    if (!d.count.empty()) d.count[0] = 1;  // src
    d.pred_begin.push_back(0);
    for (uint32_t i = 0; i < d.vertex.size(); ++i) {
        const DeviceId v = d.vertex[i];
        const bool barred = own_nics && foreign_nic(v, src, dst);
        // Incoming channels in the graph's (declaration) order: the reverse of
        // each outgoing channel v -> u is u -> v.
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
            const auto u = static_cast<DeviceId>(boost::target(*e, g));
            const uint32_t k = slot_[u];
            if (barred || k == kNoSlot || d.hop[k] != d.hop[i] - 1 || d.count[k] == 0 || !search_.may_transit(u, src) ||
                topo_.link(Topology::link_of(g[*e].channel)).bandwidth.bps() < floor_bps)
                continue;
            d.pred.push_back(g[*e].channel ^ 1u);
            d.pred_from.push_back(k);
            d.count[i] = saturating_add(d.count[i], d.count[k]);
        }
        d.pred_begin.push_back(static_cast<uint32_t>(d.pred.size()));
    }
    for (DeviceId v : d.vertex) slot_[v] = kNoSlot;
    return d;
}

const Routes::Dag* Routes::dag(DeviceId src, DeviceId dst) {
    check(src, dst);
    const uint64_t key = (static_cast<uint64_t>(src) << 32) | dst;
    auto it = dags_.find(key);
    if (it == dags_.end()) {
        if (dags_.size() >= kMaxCachedPairs) dags_.clear();
        const int64_t floor_bps = search_.widest(src, dst);
        Dag d;
        if (floor_bps > 0) {
            d = build_dag(src, dst, floor_bps, true);
            if (!d.count.empty() && d.count.back() == 0) d = build_dag(src, dst, floor_bps, false);  // no path through their own NICs
        }
        if (!d.vertex.empty() && turns_below_staging_host(d))
            if (const auto host = staging_root(topo_, src, dst)) d = via(src, *host, dst);
        it = dags_.emplace(key, std::move(d)).first;
    }
    return it->second.vertex.empty() ? nullptr : &it->second;
}

// A PCIe-only route that crosses no staging root complex (staging.hpp).
bool Routes::turns_below_staging_host(const Dag& d) const {
    for (DeviceId v : d.vertex)
        if (stages_in_host_memory(topo_.device(v))) return false;
    for (ChannelId c : d.pred)
        if (topo_.link(Topology::link_of(c)).kind != LinkKind::pcie) return false;
    return true;
}

// The routes src -> host -> dst as one DAG: host's paths in, then on. A device
// may appear twice (the PCIe switch that the traffic climbs out of and comes
// back down through); the DAG's entries are positions, not devices.
Routes::Dag Routes::via(DeviceId src, DeviceId host, DeviceId dst) {
    Dag d = build_dag(src, host, search_.widest(src, host), true);
    const Dag second = build_dag(host, dst, search_.widest(host, dst), true);
    const auto base = static_cast<uint32_t>(d.vertex.size() - 1);  // host's position
    const int hops = d.hop.back();
    const uint64_t into_host = d.count.back();
    for (uint32_t i = 1; i < second.vertex.size(); ++i) {
        d.vertex.push_back(second.vertex[i]);
        d.hop.push_back(hops + second.hop[i]);
        d.count.push_back(saturating_mul(into_host, second.count[i]));
        for (uint32_t k = second.pred_begin[i]; k < second.pred_begin[i + 1]; ++k) {
            d.pred.push_back(second.pred[k]);
            d.pred_from.push_back(base + second.pred_from[k]);
        }
        d.pred_begin.push_back(static_cast<uint32_t>(d.pred.size()));
    }
    return d;
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
        const Device& from = topo_.device(topo_.channel_source(p.channels[i]));
        if (i > 0) p.latency += from.forwarding_latency;
        p.software_latency += from.software_latency;
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
    // Only devices on some path to dst count: a barred NIC can leave a device
    // of the DAG with no way on.
    std::vector<bool> on_path(d->vertex.size(), false);
    on_path.back() = true;
    std::set<LinkId> first;
    for (uint32_t v = static_cast<uint32_t>(d->vertex.size()); v-- > 0;) {
        if (!on_path[v]) continue;
        for (uint32_t k = d->pred_begin[v]; k < d->pred_begin[v + 1]; ++k) {
            on_path[d->pred_from[k]] = true;
            if (d->pred_from[k] == 0) first.insert(Topology::link_of(d->pred[k]));
        }
    }
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
