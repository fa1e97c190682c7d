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


// A key's home slot in a power-of-two table: the high bits of a
// multiplicative hash (Knuth's golden-ratio constant).
std::size_t slot_of(uint64_t key, std::size_t size) {
    return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ULL) >> 20) & (size - 1);
}
}  // namespace

Routes::Routes(const Topology& topo)
    : topo_(topo),
      search_(topo),
      slot_(topo.devices().size(), kNoSlot),
      node_(node_of_devices(topo)),
      home_(collsim::home_nics(topo)) {
    for (const Link& l : topo.links())
        if (l.kind == LinkKind::network) network_bps_ = std::max(network_bps_, l.bandwidth.bps());
}

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

Routes::Dag::Dag(const DagParts& p) : count(p.count) {
    if (count.empty()) return;
    hops = p.hop.back();
    preds.reserve(p.pred_begin.size() + 2 * p.pred.size());
    preds.insert(preds.end(), p.pred_begin.begin(), p.pred_begin.end());
    preds.insert(preds.end(), p.pred.begin(), p.pred.end());
    preds.insert(preds.end(), p.pred_from.begin(), p.pred_from.end());
}

void Routes::build_dag(DagParts& d, DeviceId src, DeviceId dst, int64_t floor_bps, bool own_nics) {
    const auto& g = topo_.graph();
    search_.shortest_paths(src, dst, floor_bps, d.vertex, d.hop);
    for (uint32_t i = 0; i < d.vertex.size(); ++i) slot_[d.vertex[i]] = i;
    d.count.assign(d.vertex.size(), 0);
    if (!d.count.empty()) d.count[0] = 1;  // src
    d.pred_begin.assign(1, 0);
    d.pred.clear();
    d.pred_from.clear();
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
}

// The routes of one pair, into parts_ (no vertices when unreachable).
void Routes::build(DeviceId src, DeviceId dst) {
    DagParts& d = parts_;
    // Between two nodes, try the widest network link as the floor first: a
    // path over links that wide exists exactly when the widest search would
    // return that width (no path between nodes is wider, every one crossing
    // a network link), so the search is skipped where the fabric is uniform.
    int64_t floor_bps = 0;
    if (node_[src] != node_[dst] && network_bps_ > 0) {
        build_dag(d, src, dst, network_bps_, true);
        if (!d.vertex.empty()) floor_bps = network_bps_;
    }
    if (floor_bps == 0) {
        floor_bps = search_.widest(src, dst);
        d.vertex.clear();
        d.count.clear();
        if (floor_bps > 0) build_dag(d, src, dst, floor_bps, true);
    }
    if (!d.count.empty() && d.count.back() == 0) build_dag(d, src, dst, floor_bps, false);  // no path through their own NICs
    if (!d.vertex.empty() && turns_below_staging_host(d))
        if (const auto host = staging_root(topo_, src, dst)) via(src, *host, dst);
}

const Routes::Dag* Routes::dag(DeviceId src, DeviceId dst) {
    check(src, dst);
    // Device ids fit 32 bits, so key + 1 never wraps to the empty mark.
    const uint64_t key = (static_cast<uint64_t>(src) << 32) | dst;
    if (last_key_ == key + 1) return last_;
    if (keys_.size() < 2 * (dags_.size() + 1)) {
        std::vector<uint64_t> keys(std::max<std::size_t>(1024, keys_.size() * 2), 0);
        std::vector<uint32_t> slots(keys.size(), 0);
        for (std::size_t i = 0; i < keys_.size(); ++i) {
            if (keys_[i] == 0) continue;
            std::size_t j = slot_of(keys_[i] - 1, keys.size());
            while (keys[j] != 0) j = (j + 1) & (keys.size() - 1);
            keys[j] = keys_[i];
            slots[j] = slots_[i];
        }
        keys_ = std::move(keys);
        slots_ = std::move(slots);
    }
    std::size_t j = slot_of(key, keys_.size());
    while (keys_[j] != 0 && keys_[j] != key + 1) j = (j + 1) & (keys_.size() - 1);
    if (keys_[j] == 0) {
        if (bytes_ >= kMaxCachedBytes) {
            dags_.clear();
            bytes_ = 0;
            std::fill(keys_.begin(), keys_.end(), 0);
            j = slot_of(key, keys_.size());
        }
        build(src, dst);
        keys_[j] = key + 1;
        slots_[j] = static_cast<uint32_t>(dags_.size());
        bytes_ += dags_.emplace_back(parts_).bytes();
    }
    const Dag& d = dags_[slots_[j]];
    last_key_ = key + 1;
    last_ = d.count.empty() ? nullptr : &d;
    return last_;
}

// A PCIe-only route that crosses no staging root complex (staging.hpp).
bool Routes::turns_below_staging_host(const DagParts& d) const {
    for (DeviceId v : d.vertex)
        if (stages_in_host_memory(topo_.device(v))) return false;
    for (ChannelId c : d.pred)
        if (topo_.link(Topology::link_of(c)).kind != LinkKind::pcie) return false;
    return true;
}

// The routes src -> host -> dst as one DAG, into parts_: host's paths in,
// then on. A device may appear twice (the PCIe switch that the traffic climbs
// out of and comes back down through); the DAG's entries are positions, not
// devices.
void Routes::via(DeviceId src, DeviceId host, DeviceId dst) {
    DagParts& d = parts_;
    const DagParts& second = second_;
    build_dag(d, src, host, search_.widest(src, host), true);
    build_dag(second_, host, dst, search_.widest(host, dst), true);
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
    return d ? d->hops : -1;
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
    // range holds the index; channels fill in from the last.
    std::vector<ChannelId> channels(static_cast<std::size_t>(d->hops));
    std::size_t at = channels.size();
    for (uint32_t v = d->vertices() - 1; v != 0;) {
        for (uint32_t k = d->begin(v); k < d->begin(v + 1); ++k) {
            uint64_t n = d->count[d->from(k)];
            if (index < n) {
                channels[--at] = d->pred(k);
                v = d->from(k);
                break;
            }
            index -= n;
        }
    }
    return finish_path(std::move(channels));
}

std::size_t Routes::first_hop_links(DeviceId src, DeviceId dst) {
    check(src, dst);
    const Dag* d = src == dst ? nullptr : dag(src, dst);
    if (!d) return 0;
    // Only devices on some path to dst count: a barred NIC can leave a device
    // of the DAG with no way on.
    std::vector<bool> on_path(d->vertices(), false);
    on_path.back() = true;
    std::set<LinkId> first;
    for (uint32_t v = d->vertices(); v-- > 0;) {
        if (!on_path[v]) continue;
        for (uint32_t k = d->begin(v); k < d->begin(v + 1); ++k) {
            on_path[d->from(k)] = true;
            if (d->from(k) == 0) first.insert(Topology::link_of(d->pred(k)));
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
    std::vector<Best> best(d->vertices());
    for (uint32_t v = 1; v < d->vertices(); ++v) {
        for (uint32_t k = d->begin(v); k < d->begin(v + 1); ++k) {
            const Best& from = best[d->from(k)];
            const uint64_t l = load(d->pred(k));
            Best cand{std::max(from.max, l), from.sum + l, mix64(tie_break ^ (uint64_t{d->pred(k)} << 20)), k};
            Best& cur = best[v];
            if (cur.via == UINT32_MAX || std::tie(cand.max, cand.sum, cand.key) < std::tie(cur.max, cur.sum, cur.key))
                cur = cand;
        }
    }
    std::vector<ChannelId> channels(static_cast<std::size_t>(d->hops));
    std::size_t at = channels.size();
    for (uint32_t v = d->vertices() - 1; v != 0; v = d->from(best[v].via)) channels[--at] = d->pred(best[v].via);
    return finish_path(std::move(channels));
}

}  // namespace collsim
