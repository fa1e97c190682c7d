#include "sim/hw/nodes.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace collsim {

namespace {
uint32_t find_root(std::vector<uint32_t>& parent, uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
}

// The NICs at the fewest non-network hops from `gpu`, never passing through
// another GPU.
std::vector<DeviceId> nearest_nics(const Topology& topo, DeviceId gpu, std::vector<int>& level) {
    const auto& g = topo.graph();
    std::vector<DeviceId> frontier{gpu}, touched{gpu}, found;
    level[gpu] = 0;
    for (int depth = 1; !frontier.empty() && found.empty(); ++depth) {
        std::vector<DeviceId> next;
        for (DeviceId v : frontier) {
            if (v != gpu && topo.device(v).kind == DeviceKind::gpu) continue;
            for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
                if (topo.link(Topology::link_of(g[*e].channel)).kind == LinkKind::network) continue;
                const auto u = static_cast<DeviceId>(boost::target(*e, g));
                if (level[u] >= 0) continue;
                level[u] = depth;
                touched.push_back(u);
                next.push_back(u);
                if (topo.device(u).kind == DeviceKind::nic) found.push_back(u);
            }
        }
        frontier = std::move(next);
    }
    for (DeviceId v : touched) level[v] = -1;
    std::sort(found.begin(), found.end());
    return found;
}
}  // namespace

std::vector<uint32_t> node_of_devices(const Topology& topo) {
    std::vector<uint32_t> parent(topo.devices().size());
    std::iota(parent.begin(), parent.end(), 0u);
    for (const Link& l : topo.links())
        if (l.kind != LinkKind::network) parent[find_root(parent, l.a)] = find_root(parent, l.b);
    for (uint32_t v = 0; v < parent.size(); ++v) parent[v] = find_root(parent, v);
    return parent;
}

std::vector<std::vector<DeviceId>> home_nics(const Topology& topo) {
    std::vector<std::vector<DeviceId>> home(topo.devices().size());
    std::vector<int> level(topo.devices().size(), -1);
    // GPUs with the same closest NICs take them round-robin in GPU order, and
    // NICs left over go round-robin too: two GPUs and four NICs behind one
    // PCIe switch give each GPU two, four GPUs and two NICs share each NIC.
    std::map<std::vector<DeviceId>, std::vector<DeviceId>> gpus_of;
    for (DeviceId gpu : topo.gpus()) {
        std::vector<DeviceId> nics = nearest_nics(topo, gpu, level);
        if (!nics.empty()) gpus_of[std::move(nics)].push_back(gpu);
    }
    for (const auto& [nics, gpus] : gpus_of) {
        for (std::size_t i = 0; i < gpus.size(); ++i) home[gpus[i]].push_back(nics[i % nics.size()]);
        for (std::size_t k = gpus.size(); k < nics.size(); ++k) home[gpus[k % gpus.size()]].push_back(nics[k]);
    }
    return home;
}

}  // namespace collsim
