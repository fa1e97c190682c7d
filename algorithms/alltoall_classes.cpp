#include "algorithms/alltoall_classes.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "sim/exec/executor.hpp"
#include "sim/exec/step_costs.hpp"
#include "sim/hw/staging.hpp"

namespace collsim {

namespace {

// Hops from the nearest GPU, per device (a breadth-first search from all GPUs).
std::vector<int> gpu_distance(const Topology& topo) {
    std::vector<std::vector<DeviceId>> next(topo.devices().size());
    for (const Link& l : topo.links()) {
        next[l.a].push_back(l.b);
        next[l.b].push_back(l.a);
    }
    std::vector<int> hops(topo.devices().size(), -1);
    std::deque<DeviceId> queue;
    for (DeviceId g : topo.gpus()) hops[g] = 0, queue.push_back(g);
    while (!queue.empty()) {
        const DeviceId d = queue.front();
        queue.pop_front();
        for (DeviceId e : next[d])
            if (hops[e] < 0) hops[e] = hops[d] + 1, queue.push_back(e);
    }
    return hops;
}

// What a resource joins, as far as the machine's symmetry can tell: a link
// direction's two device kinds and distances from the GPUs and its capacity;
// a staging host's memory port; a GPU's channel ceiling.
enum class RoleKind { link, memory, ceiling };
using RoleKey = std::tuple<RoleKind, int, int, int, int, int64_t>;

class RoleTable {
public:
    RoleTable(const Topology& topo, CostModel& m, int channels) : topo_(topo), m_(m), hops_(gpu_distance(topo)) {
        for (ChannelId c = 0; c < topo.channel_count(); ++c) ++id_and_count(link_key(c)).links;
        for (DeviceId d = 0; d < topo.devices().size(); ++d)
            if (stages_in_host_memory(topo.device(d))) ++id_and_count(memory_key(d)).links;
        const int64_t ceiling = m.ceiling(topo.gpus().front(), 1);
        if (ceiling != INT64_MAX) {
            // One per GPU and channel, each the channel's share (as Executor::channel_ceiling).
            AllToAllClasses::Role& r = id_and_count(RoleKey{RoleKind::ceiling, 0, 0, 0, 0, ceiling / channels});
            r.links = static_cast<int64_t>(topo.gpus().size()) * channels;
            ceiling_ = static_cast<uint32_t>(index_.at(RoleKey{RoleKind::ceiling, 0, 0, 0, 0, ceiling / channels}));
        }
    }

    RoleKey link_key(ChannelId c) const {
        const DeviceId a = topo_.channel_source(c), b = topo_.channel_target(c);
        return RoleKey{RoleKind::link, static_cast<int>(topo_.device(a).kind), hops_[a],
                       static_cast<int>(topo_.device(b).kind), hops_[b], m_.capacity(c).bps()};
    }
    RoleKey memory_key(DeviceId d) const {
        return RoleKey{RoleKind::memory, static_cast<int>(topo_.device(d).kind), hops_[d], 0, 0,
                       topo_.device(d).memory_bandwidth.bps()};
    }
    uint32_t role_of(ResourceId r) const {
        const RoleKey key = r < topo_.channel_count()
                                ? link_key(static_cast<ChannelId>(r))
                                : memory_key(static_cast<DeviceId>(r - topo_.channel_count()));
        return static_cast<uint32_t>(index_.at(key));
    }
    std::optional<uint32_t> ceiling() const { return ceiling_; }

    // Why the roles cannot be orbits of a symmetry, if so: devices at one
    // distance of one kind must have the same roles out (a fault, an override
    // or a missing link gives one of them other ones).
    std::optional<std::string> asymmetry() const {
        std::vector<std::vector<uint32_t>> out(topo_.devices().size());
        for (ChannelId c = 0; c < topo_.channel_count(); ++c) out[topo_.channel_source(c)].push_back(role_of(c));
        std::map<std::pair<int, int>, std::pair<DeviceId, std::vector<uint32_t>>> seen;
        for (DeviceId d = 0; d < out.size(); ++d) {
            std::sort(out[d].begin(), out[d].end());
            const auto [it, added] = seen.emplace(std::pair{static_cast<int>(topo_.device(d).kind), hops_[d]},
                                                  std::pair{d, out[d]});
            if (!added && it->second.second != out[d])
                return fmt::format("{} and {} differ in their links", topo_.device(it->second.first).name,
                                   topo_.device(d).name);
        }
        return std::nullopt;
    }
    std::vector<AllToAllClasses::Role> roles() const { return roles_; }

private:
    AllToAllClasses::Role& id_and_count(const RoleKey& key) {
        auto [it, added] = index_.emplace(key, roles_.size());
        if (added) {
            const auto kind = std::get<0>(key);
            roles_.push_back(AllToAllClasses::Role{0, std::get<5>(key), kind != RoleKind::memory});
        }
        return roles_[it->second];
    }

    const Topology& topo_;
    CostModel& m_;
    std::vector<int> hops_;
    std::map<RoleKey, std::size_t> index_;
    std::vector<AllToAllClasses::Role> roles_;
    std::optional<uint32_t> ceiling_;
};

using ClassKey = std::tuple<std::vector<std::pair<uint32_t, int>>, int64_t, int64_t>;

// The classes of the transfers from one node's GPUs to every other GPU, each
// counted once.
std::map<ClassKey, int64_t> node_classes(CostModel& m, const RoleTable& roles, const std::vector<DeviceId>& gpus,
                                         uint32_t node, Bytes bytes, std::vector<int64_t>* node_loads) {
    const Topology& topo = *m.comm().topo;
    const auto& node_of = m.routes().node_of();
    std::map<ClassKey, int64_t> out;
    for (DeviceId s : gpus) {
        if (node_of[s] != node) continue;
        for (DeviceId d : gpus) {
            if (d == s) continue;
            const Path& p = m.path(s, d, 0);
            std::vector<ResourceId> res = send_resources(topo, p);
            if (node_loads)
                for (ChannelId c : p.channels) ++(*node_loads)[c];
            std::vector<std::pair<uint32_t, int>> crossed;
            for (ResourceId r : res) crossed.emplace_back(roles.role_of(r), 1);
            if (roles.ceiling()) crossed.emplace_back(*roles.ceiling(), 1);
            std::sort(crossed.begin(), crossed.end());
            std::vector<std::pair<uint32_t, int>> counted;
            for (const auto& [role, k] : crossed) {
                if (!counted.empty() && counted.back().first == role)
                    counted.back().second += k;
                else
                    counted.emplace_back(role, k);
            }
            const Bytes wire = wire_bytes(bytes, m.protocol(), m.via_switch(s, d));
            ++out[ClassKey{std::move(counted), step_latency(p, m.protocol(), true).ps(), wire.count()}];
        }
    }
    return out;
}

// Pooling a role's links assumes that the pairs' routes spread over them, as
// ECMP's hash (or adaptive routing's load-free choice) does; single-path
// routing puts every pair on its path 0, which pooled roles cannot see (16x
// off on a 2:1 fat-tree). Whether the first node's first 64 pairs with more
// than one path all took path 0: by chance, at most 2^-64 under a hash.
bool takes_first_paths(CostModel& m, const std::vector<DeviceId>& gpus, uint32_t node) {
    const auto& node_of = m.routes().node_of();
    int multipath = 0;
    for (DeviceId s : gpus) {
        if (node_of[s] != node) continue;
        for (DeviceId d : gpus) {
            if (d == s || m.routes().path_count(s, d) < 2) continue;
            if (m.path(s, d, 0).channels != m.routes().path(s, d, 0).channels) return false;
            if (++multipath == 64) return true;
        }
    }
    return multipath > 0;
}

}  // namespace

std::variant<AllToAllClasses, std::string> alltoall_classes(const CollectiveCall& call, CostModel& m, Bytes bytes) {
    const CommLayout& comm = m.comm();
    const Topology& topo = *comm.topo;
    if (comm.size() != static_cast<int>(topo.gpus().size()))
        return std::string("the communicator is not the whole machine");
    if (!comm.ranks_per_node()) return std::string("nodes hold different numbers of ranks");
    std::vector<DeviceId> gpus;
    for (int r = 0; r < comm.size(); ++r) gpus.push_back(m.gpu(r, 0));
    const auto& node_of = m.routes().node_of();
    const RoleTable roles(topo, m, call.channels);
    if (auto why = roles.asymmetry()) return *why;
    if (takes_first_paths(m, gpus, node_of[gpus.front()]))
        return std::string("the pairs take their first equal-cost path (single-path routing), not a hashed spread");
    std::vector<int64_t> loads(topo.channel_count(), 0);
    const uint32_t first = node_of[gpus.front()], last = node_of[gpus.back()];
    const auto classes = node_classes(m, roles, gpus, first, bytes, &loads);
    // The first node's own link directions of one role carry one load (its
    // sends and the receives among its GPUs): a node whose GPUs differ is not
    // symmetric.
    std::map<uint32_t, int64_t> role_load;
    for (ChannelId c = 0; c < topo.channel_count(); ++c) {
        if (node_of[topo.channel_source(c)] != first || node_of[topo.channel_target(c)] != first) continue;
        auto [it, added] = role_load.emplace(roles.role_of(c), loads[c]);
        if (!added && it->second != loads[c])
            return fmt::format("link directions of one kind carry different loads on the first node ({} and {})",
                               it->second, loads[c]);
    }
    AllToAllClasses out;
    out.routes = static_cast<int64_t>(gpus.size() / comm.nodes.size()) * static_cast<int64_t>(gpus.size() - 1);
    if (last != first) {
        if (node_classes(m, roles, gpus, last, bytes, nullptr) != classes)
            return std::string("the last node's pairs fall into other classes than the first node's");
        out.routes *= 2;
    }
    out.roles = roles.roles();
    const int64_t copies = static_cast<int64_t>(comm.nodes.size()) * call.channels;
    for (const auto& [key, count] : classes)
        out.classes.push_back(
            AllToAllClasses::Class{count * copies, std::get<0>(key), Time::from_ps(std::get<1>(key)), Bytes(std::get<2>(key))});
    return out;
}

namespace {
// Per role, the members' crossings in all.
std::vector<__int128> crossings(const AllToAllClasses& c) {
    std::vector<__int128> total(c.roles.size(), 0);
    for (const auto& k : c.classes)
        for (const auto& [role, times] : k.roles) total[role] += static_cast<__int128>(k.members) * times;
    return total;
}
}  // namespace

Estimate classes_concurrent(const AllToAllClasses& c) {
    const std::vector<__int128> total = crossings(c);
    Estimate worst;
    for (std::size_t i = 0; i < c.classes.size(); ++i) {
        const auto& k = c.classes[i];
        Estimate e{k.latency, Time{}};
        if (k.wire.count() > 0 && !k.roles.empty()) {
            // A link's share: capacity over its transfers, links x capacity over the role's crossings.
            int64_t rate = INT64_MAX;
            for (const auto& [role, times] : k.roles) {
                const AllToAllClasses::Role& r = c.roles[role];
                if (!r.link) continue;
                rate = std::min(rate, static_cast<int64_t>(static_cast<__int128>(r.capacity) * r.links / total[role]));
            }
            e.bandwidth = transfer_time(k.wire, Bandwidth::bytes_per_s(rate));
        }
        worst = i == 0 ? e : slower(worst, e);
    }
    return worst;
}

Time classes_fluid_time(const AllToAllClasses& c) {
    const std::size_t n = c.classes.size();
    std::vector<double> left(n);
    std::vector<bool> active(n);
    for (std::size_t i = 0; i < n; ++i) left[i] = static_cast<double>(c.classes[i].wire.count()), active[i] = left[i] > 0;
    double t = 0;
    for (;;) {
        // Progressive filling over the active classes.
        std::vector<double> cap(c.roles.size()), weight(c.roles.size(), 0), rate(n, -1);
        for (std::size_t r = 0; r < c.roles.size(); ++r)
            cap[r] = static_cast<double>(c.roles[r].capacity) * static_cast<double>(c.roles[r].links);
        std::size_t unfrozen = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (!active[i]) continue;
            ++unfrozen;
            for (const auto& [role, times] : c.classes[i].roles)
                weight[role] += static_cast<double>(c.classes[i].members) * times;
        }
        if (unfrozen == 0) break;
        while (unfrozen > 0) {
            std::size_t best = c.roles.size();
            for (std::size_t r = 0; r < c.roles.size(); ++r)
                if (weight[r] > 0 && (best == c.roles.size() || cap[r] * weight[best] < cap[best] * weight[r])) best = r;
            if (best == c.roles.size()) return Time{};  // transfers on no resource: only their latency
            const double share = std::max(cap[best], 0.0) / weight[best];
            for (std::size_t i = 0; i < n; ++i) {
                if (!active[i] || rate[i] >= 0) continue;
                const auto& roles = c.classes[i].roles;
                if (std::none_of(roles.begin(), roles.end(), [&](const auto& x) { return x.first == best; })) continue;
                rate[i] = share;
                --unfrozen;
                for (const auto& [role, times] : roles) {
                    const double load = static_cast<double>(c.classes[i].members) * times;
                    cap[role] -= load * share;
                    weight[role] -= load;
                }
            }
            weight[best] = 0;
        }
        double step = -1;
        for (std::size_t i = 0; i < n; ++i)
            if (active[i] && rate[i] > 0 && (step < 0 || left[i] / rate[i] < step)) step = left[i] / rate[i];
        if (step < 0) break;  // nothing moves (a dead link): no end
        t += step;
        for (std::size_t i = 0; i < n; ++i) {
            if (!active[i]) continue;
            left[i] -= rate[i] * step;
            if (left[i] <= 1e-9 * static_cast<double>(c.classes[i].wire.count())) active[i] = false;
        }
    }
    return Time::from_ps(static_cast<int64_t>(t * 1e12 + 0.5));
}

}  // namespace collsim
