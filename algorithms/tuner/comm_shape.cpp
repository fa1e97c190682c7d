#include "algorithms/tuner/comm_shape.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "sim/model/link_efficiency.hpp"

namespace collsim {

namespace {
bool crosses_cpu(const Topology& topo, const Path& p) {
    for (std::size_t i = 1; i < p.channels.size(); ++i)
        if (topo.device(topo.channel_source(p.channels[i])).kind == DeviceKind::root_complex) return true;
    return false;
}
}  // namespace

CommShape comm_shape(const Topology& topo, Routes& routes, const std::vector<DeviceId>& ranks) {
    CommShape s;
    s.ranks = static_cast<int>(ranks.size());
    if (ranks.empty()) return s;
    s.arch = topo.device(ranks[0]).arch;
    const LinkEfficiency eff = nccl_link_efficiency(s.arch);
    const std::vector<uint32_t> node = node_of_devices(topo);

    std::map<uint32_t, int> per_node;
    for (DeviceId g : ranks) ++per_node[node[g]];
    s.nodes = static_cast<int>(per_node.size());
    for (const auto& [n, count] : per_node) s.ppn = std::max(s.ppn, count);

    // Intra-node: the narrowest hop between ring neighbours that share a node.
    s.intra_bw = 5000.0;  // NCCL's LOC_BW when a node holds one GPU of the ring
    bool any = false;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        DeviceId a = ranks[i], b = ranks[(i + 1) % ranks.size()];
        if (a == b || node[a] != node[b]) continue;
        Path p = routes.path(a, b);
        const double bw = p.bottleneck.gbps() * eff[static_cast<std::size_t>(p.link_class)];
        if (!any || bw < s.intra_bw) {
            s.intra_bw = bw;
            s.intra_class = p.link_class;
        }
        s.intra_via_cpu = s.intra_via_cpu || crosses_cpu(topo, p);
        any = true;
    }

    // NICs: devices of kind nic in a rank's node that have a network port.
    std::map<uint32_t, int> nics;
    for (LinkId l = 0; l < topo.links().size(); ++l) {
        const Link& link = topo.link(l);
        if (link.kind != LinkKind::network) continue;
        for (DeviceId end : {link.a, link.b}) {
            if (topo.device(end).kind != DeviceKind::nic || !per_node.count(node[end])) continue;
            ++nics[node[end]];
            s.nic_bw = std::max(s.nic_bw, link.bandwidth.gbps() * eff[static_cast<std::size_t>(LinkClass::net)]);
        }
    }
    s.nics_per_node = nics.empty() ? 0 : INT32_MAX;
    for (const auto& [n, c] : nics) s.nics_per_node = std::min(s.nics_per_node, c);

    // NVLS: NVLink SHARP needs Hopper or later and a reducing NVSwitch next to every GPU.
    const bool nvls_arch = s.arch == GpuArch::hopper || s.arch == GpuArch::blackwell;
    s.nvls = nvls_arch;
    const auto& g = topo.graph();
    for (DeviceId r : ranks) {
        bool near = false;
        for (auto [e, end] = boost::out_edges(r, g); e != end; ++e) {
            const Device& d = topo.device(static_cast<DeviceId>(boost::target(*e, g)));
            near = near || (d.kind == DeviceKind::nvswitch && d.in_network_reduction);
        }
        s.nvls = s.nvls && near;
    }
    for (const Device& d : topo.devices())
        s.collnet = s.collnet || (d.kind == DeviceKind::network_switch && d.in_network_reduction);
    s.collnet = s.collnet && s.nodes > 1;
    return s;
}

}  // namespace collsim
