#pragma once
// A communicator: the GPUs of a collective in rank order, and how they group
// into servers: GPUs joined without network links (node_of_devices in
// sim/hw/nodes.hpp; an NVLink domain over several trays is one server). Hierarchical algorithms work per
// server ("node") and per rail (the GPUs with the same local index in every
// server); flat ones only need the rank order.
#include <optional>
#include <string>
#include <vector>

#include "sim/hw/topology.hpp"

namespace collsim {

struct CommLayout {
    const Topology* topo = nullptr;
    std::vector<DeviceId> gpus;           // rank -> GPU
    std::vector<int> node_of;             // rank -> node, nodes numbered by their first rank
    std::vector<int> local_index;         // rank -> position among its node's ranks
    std::vector<std::vector<int>> nodes;  // the ranks of each node, in rank order

    int size() const { return static_cast<int>(gpus.size()); }
    int node_count() const { return static_cast<int>(nodes.size()); }
    // The ranks per node when every node has the same number, else nullopt.
    std::optional<int> ranks_per_node() const;
};

CommLayout make_communicator(const Topology& topo, std::vector<DeviceId> gpus);
// The first n GPUs of the topology.
CommLayout first_gpus(const Topology& topo, int n);

}  // namespace collsim
