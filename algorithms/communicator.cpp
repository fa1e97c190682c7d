#include "algorithms/communicator.hpp"

#include <map>

#include "sim/hw/nodes.hpp"

namespace collsim {

std::optional<int> CommLayout::ranks_per_node() const {
    if (nodes.empty()) return std::nullopt;
    for (const auto& n : nodes)
        if (n.size() != nodes.front().size()) return std::nullopt;
    return static_cast<int>(nodes.front().size());
}

CommLayout make_communicator(const Topology& topo, std::vector<DeviceId> gpus) {
    CommLayout c;
    c.topo = &topo;
    c.gpus = std::move(gpus);
    const std::vector<uint32_t> server = node_of_devices(topo);
    std::map<uint32_t, int> node_of_server;
    for (DeviceId g : c.gpus) {
        auto [it, fresh] = node_of_server.emplace(server[g], static_cast<int>(c.nodes.size()));
        if (fresh) c.nodes.emplace_back();
        const int node = it->second;
        c.node_of.push_back(node);
        c.local_index.push_back(static_cast<int>(c.nodes[static_cast<std::size_t>(node)].size()));
        c.nodes[static_cast<std::size_t>(node)].push_back(static_cast<int>(c.node_of.size()) - 1);
    }
    return c;
}

CommLayout first_gpus(const Topology& topo, int n) {
    return make_communicator(topo, std::vector<DeviceId>(topo.gpus().begin(), topo.gpus().begin() + n));
}

}  // namespace collsim
