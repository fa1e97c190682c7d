#include "sim/hw/staging.hpp"

#include <deque>
#include <map>

namespace collsim {

bool stages_in_host_memory(const Device& d) {
    return d.kind == DeviceKind::root_complex && d.memory_bandwidth.bps() > 0;
}

namespace {

// Hops from `gpu` to the devices it reaches over PCIe links through PCIe
// switches only; root complexes are reached, not crossed. The search stays
// inside the GPU's PCIe tree, so it costs the same in any size of fabric.
std::map<DeviceId, int> pcie_hops(const Topology& topo, DeviceId gpu) {
    std::map<DeviceId, int> hops{{gpu, 0}};
    std::deque<DeviceId> queue{gpu};
    const auto& g = topo.graph();
    while (!queue.empty()) {
        const DeviceId v = queue.front();
        queue.pop_front();
        if (v != gpu && topo.device(v).kind != DeviceKind::pcie_switch) continue;
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
            if (topo.link(Topology::link_of(g[*e].channel)).kind != LinkKind::pcie) continue;
            const auto u = static_cast<DeviceId>(boost::target(*e, g));
            if (hops.emplace(u, hops[v] + 1).second) queue.push_back(u);
        }
    }
    return hops;
}

}  // namespace

std::optional<DeviceId> staging_root(const Topology& topo, DeviceId a, DeviceId b) {
    if (a == b || topo.device(a).kind != DeviceKind::gpu || topo.device(b).kind != DeviceKind::gpu) return std::nullopt;
    const auto from_a = pcie_hops(topo, a), from_b = pcie_hops(topo, b);
    std::optional<DeviceId> best;
    int best_hops = 0;
    for (const auto& [r, hops_a] : from_a) {
        const auto it = from_b.find(r);
        if (!stages_in_host_memory(topo.device(r)) || it == from_b.end()) continue;
        if (!best || hops_a + it->second < best_hops) best = r, best_hops = hops_a + it->second;
    }
    return best;
}

}  // namespace collsim
