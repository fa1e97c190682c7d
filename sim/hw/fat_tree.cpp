// Folded-Clos (fat-tree) fabrics of 1 to 3 tiers, optionally rail-optimised
// and in several identical planes.
//
// Construction, with radix k and d = k/2 down ports per switch below the top:
// - Leaves: each group of endpoints (all of them, or one rail: NIC i of every
//   node) fills ceil(n/d) leaves of its own. A leaf has u1 = d * up/down
//   uplinks for an oversubscription "down:up"; oversubscription is modelled
//   by tapering uplinks, as operators do when they buy fewer spines.
// - 2 tiers: every leaf reaches every spine with the same number of parallel
//   links; the spine count is the smallest divisor of u1 whose ports hold all
//   leaf uplinks (so a spine has at most k ports in use).
// - 3 tiers: leaves form pods of d; each pod has its own middle switches
//   ("spines"), each leaf reaching each of them equally. Spine a of every pod
//   reaches core group a; cores per group as for 2 tiers.
// Rail leaves are ordered group-major (leaf 0 of rails 0..R-1, then leaf 1 ...)
// so a pod holds whole scalable units of nodes, as in NVIDIA's DGX SuperPOD
// reference architecture.
#include <map>

#include <fmt/format.h>

#include "sim/hw/fabric.hpp"

namespace collsim {

namespace {

struct Plan {
    int64_t d = 0, u1 = 0;
    std::vector<std::vector<DeviceId>> groups;
    std::vector<std::pair<uint32_t, uint32_t>> leaf_pos;  // (group, leaf within group), in leaf order
    // 2 tiers
    int64_t spines = 0, leaf_spine_links = 0;
    // 3 tiers
    int64_t pod_leaves = 0, pods = 0, pod_spines = 0, leaf_pod_links = 0, u2 = 0, cores_per_group = 0,
            spine_core_links = 0;
};

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The fewest switches s (a divisor of `uplinks`, so every lower switch spreads
// its uplinks evenly) whose `ports` can take `lower * uplinks` links.
int64_t upper_switches(int64_t uplinks, int64_t lower, int64_t ports) {
    for (int64_t s = 1; s <= uplinks; ++s)
        if (uplinks % s == 0 && s * ports >= lower * uplinks) return s;
    return uplinks;
}

std::vector<std::vector<DeviceId>> endpoint_groups(YamlFields& f, const FragmentBuilder& b, const FabricSpec& spec) {
    if (spec.kind != FabricKind::rail_fat_tree) return {spec.endpoints};
    // A rail is the endpoint's name within its node: node17.nic3 is on rail nic3.
    std::map<std::string, std::size_t> rail_of;
    std::vector<std::vector<DeviceId>> rails;
    for (DeviceId e : spec.endpoints) {
        const std::string& name = b.device(e).name;
        const auto dot = name.rfind('.');
        if (dot == std::string::npos) {
            f.error(spec.node["endpoints"], spec.path + ".endpoints",
                    "devices of node instances, like 'node*.nic*' (a rail is a device's name within its node)",
                    fmt::format("'{}', which is not in a node instance", name));
            return {};
        }
        auto [it, added] = rail_of.emplace(name.substr(dot + 1), rails.size());
        if (added) rails.emplace_back();
        rails[it->second].push_back(e);
    }
    return rails;
}

std::optional<Plan> plan(YamlFields& f, const FragmentBuilder& b, const FabricSpec& spec) {
    Plan p;
    p.groups = endpoint_groups(f, b, spec);
    if (p.groups.empty()) return std::nullopt;
    const int64_t k = spec.radix;
    const int64_t endpoints = static_cast<int64_t>(spec.endpoints.size());
    auto too_small = [&](const std::string& why) {
        f.error(spec.node["radix"], spec.path + ".radix",
                fmt::format("a radix large enough for {} endpoints in {} tier{}", endpoints, spec.tiers,
                            spec.tiers > 1 ? "s" : ""),
                fmt::format("radix {}: {}", k, why));
    };
    p.d = spec.tiers == 1 ? k : k / 2;
    std::vector<int64_t> leaves;
    for (const auto& g : p.groups) leaves.push_back(ceil_div(static_cast<int64_t>(g.size()), p.d));
    for (int64_t j = 0, more = 1; more; ++j) {
        more = 0;
        for (uint32_t g = 0; g < p.groups.size(); ++g) {
            if (j < leaves[g]) p.leaf_pos.emplace_back(g, static_cast<uint32_t>(j));
            more |= j + 1 < leaves[g];
        }
    }
    const int64_t l1 = static_cast<int64_t>(p.leaf_pos.size());
    if (spec.tiers == 1) {
        for (const auto& g : p.groups)
            if (static_cast<int64_t>(g.size()) > k) {
                too_small(fmt::format("{} endpoints on one switch", g.size()));
                return std::nullopt;
            }
        return p;
    }
    auto uplinks = [&](std::size_t tier, int64_t down) -> std::optional<int64_t> {
        const PortRatio r = spec.oversubscription[tier];
        if ((down * r.up) % r.down == 0) return down * r.up / r.down;
        f.error(spec.node["oversubscription"][tier], fmt::format("{}.oversubscription[{}]", spec.path, tier),
                fmt::format("a ratio that splits the {} down ports of a tier-{} switch into whole up ports", down,
                            tier + 1),
                fmt::format("'{}:{}' ({} x {}/{} up ports)", r.down, r.up, down, r.up, r.down));
        return std::nullopt;
    };
    auto u1 = uplinks(0, p.d);
    if (!u1) return std::nullopt;
    p.u1 = *u1;
    if (spec.tiers == 2) {
        if (l1 > k) {
            too_small(fmt::format("{} leaf switches, more than the {} ports of a spine", l1, k));
            return std::nullopt;
        }
        p.spines = upper_switches(p.u1, l1, k);
        p.leaf_spine_links = p.u1 / p.spines;
        return p;
    }
    p.pod_leaves = std::min(l1, p.d);
    p.pods = ceil_div(l1, p.pod_leaves);
    if (p.pods > k) {
        too_small(fmt::format("{} pods of {} leaf switches, more than the {} ports of a core switch", p.pods,
                              p.pod_leaves, k));
        return std::nullopt;
    }
    p.pod_spines = upper_switches(p.u1, p.pod_leaves, p.d);
    p.leaf_pod_links = p.u1 / p.pod_spines;
    auto u2 = uplinks(1, p.pod_leaves * p.leaf_pod_links);
    if (!u2) return std::nullopt;
    p.u2 = *u2;
    p.cores_per_group = upper_switches(p.u2, p.pods, k);
    p.spine_core_links = p.u2 / p.cores_per_group;
    return p;
}

Link between(const Link& props, DeviceId a, DeviceId b) {
    Link l = props;
    l.a = a;
    l.b = b;
    return l;
}
}  // namespace

void build_fat_tree(YamlFields& f, FragmentBuilder& b, const FabricSpec& spec) {
    auto p = plan(f, b, spec);
    if (!p) return;
    const bool rails = spec.kind == FabricKind::rail_fat_tree;
    const int64_t bw = spec.link.bandwidth.bps();
    // A switch name already taken is reported once and ends the expansion
    // (the load then fails with that error).
    bool clash = false;
    auto add = [&](std::string name) -> DeviceId {
        const DeviceId id = static_cast<DeviceId>(b.device_count());
        if (!clash && b.add_device(fabric_switch(spec, std::move(name)), spec.path, spec.node)) return id;
        clash = true;
        return 0;
    };
    FabricInfo info{spec.name, spec.kind_name, spec.planes, static_cast<uint32_t>(spec.endpoints.size()), {}};
    for (int plane = 0; plane < spec.planes; ++plane) {
        const std::string prefix = spec.planes > 1 ? fmt::format("{}.p{}", spec.name, plane) : spec.name;
        // Leaves, and which leaf each endpoint of each group lands on.
        std::vector<std::vector<DeviceId>> leaf_of_group(p->groups.size());
        std::vector<DeviceId> leaf;
        for (auto [g, j] : p->leaf_pos) {
            const DeviceId id =
                add(rails ? fmt::format("{}.rail{}.leaf{}", prefix, g, j) : fmt::format("{}.leaf{}", prefix, j));
            leaf.push_back(id);
            leaf_of_group[g].push_back(id);
        }
        if (clash) return;
        int64_t endpoint_bps = 0, endpoint_links = 0;
        for (std::size_t g = 0; g < p->groups.size(); ++g)
            for (std::size_t e = 0; e < p->groups[g].size(); ++e) {
                b.add_link(between(spec.endpoint_link, p->groups[g][e], leaf_of_group[g][e / p->d]));
                endpoint_bps += spec.endpoint_link.bandwidth.bps();
                ++endpoint_links;
            }
        const auto l1 = static_cast<int64_t>(leaf.size());
        auto ratio = [&](std::size_t tier) {
            const PortRatio r = spec.oversubscription[tier];
            return fmt::format("{}:{}", r.down, r.up);
        };
        if (plane == 0)
            info.tiers.push_back({"leaf", static_cast<uint32_t>(l1), endpoint_bps, spec.tiers > 1 ? l1 * p->u1 * bw : 0,
                                  spec.tiers > 1 ? ratio(0) : "",
                                  endpoint_links, l1 * p->d});
        if (spec.tiers == 2) {
            std::vector<DeviceId> spine;
            for (int64_t s = 0; s < p->spines; ++s) spine.push_back(add(fmt::format("{}.spine{}", prefix, s)));
            if (clash) return;
            for (DeviceId l : leaf)
                for (DeviceId s : spine)
                    for (int64_t n = 0; n < p->leaf_spine_links; ++n) b.add_link(between(spec.link, l, s));
            if (plane == 0)
                info.tiers.push_back({"spine", static_cast<uint32_t>(p->spines), l1 * p->u1 * bw, 0, "", l1 * p->u1,
                                      l1 * p->u1});
        } else if (spec.tiers == 3) {
            std::vector<DeviceId> core;
            for (int64_t c = 0; c < p->pod_spines * p->cores_per_group; ++c)
                core.push_back(add(fmt::format("{}.core{}", prefix, c)));
            for (int64_t pod = 0; pod < p->pods; ++pod) {
                std::vector<DeviceId> spine;
                for (int64_t a = 0; a < p->pod_spines; ++a)
                    spine.push_back(add(fmt::format("{}.pod{}.spine{}", prefix, pod, a)));
                if (clash) return;
                const int64_t end = std::min(l1, (pod + 1) * p->pod_leaves);
                for (int64_t l = pod * p->pod_leaves; l < end; ++l)
                    for (DeviceId s : spine)
                        for (int64_t n = 0; n < p->leaf_pod_links; ++n) b.add_link(between(spec.link, leaf[l], s));
                for (int64_t a = 0; a < p->pod_spines; ++a)
                    for (int64_t c = 0; c < p->cores_per_group; ++c)
                        for (int64_t n = 0; n < p->spine_core_links; ++n)
                            b.add_link(between(spec.link, spine[a], core[a * p->cores_per_group + c]));
            }
            if (plane == 0) {
                const int64_t spines = p->pods * p->pod_spines;
                info.tiers.push_back({"spine", static_cast<uint32_t>(spines), l1 * p->u1 * bw, spines * p->u2 * bw,
                                      ratio(1), l1 * p->u1, l1 * p->u1});
                info.tiers.push_back({"core", static_cast<uint32_t>(core.size()), spines * p->u2 * bw, 0, "",
                                      spines * p->u2, spines * p->u2});
            }
        }
    }
    b.add_fabric(std::move(info));
}

}  // namespace collsim
