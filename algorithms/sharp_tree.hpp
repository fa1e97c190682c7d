#pragma once
// The in-network aggregation tree of one rail for CollNet/SHARP: the network
// switches that declare in_network_reduction: true, joined along the routes
// the GPUs' traffic takes. The root is the first such switch on the route
// from the rail's second GPU to its first that every rail GPU's route to the
// first GPU also crosses (the single fabric switch, or the first GPU's leaf
// in a fat tree); each GPU's parent is the first reducing switch on its route
// to the root, each switch's parent the next one.
#include <optional>
#include <string>
#include <vector>

#include "sim/hw/routes.hpp"

namespace collsim {

struct SharpTree {
    DeviceId root = 0;
    std::vector<DeviceId> switches;                  // every switch of the tree, root first
    std::vector<DeviceId> parent_of_gpu;             // per rail GPU, in rail order
    std::vector<std::pair<DeviceId, DeviceId>> up;   // (switch, parent switch) edges
};

// nullopt with the reason when the rail's GPUs have no common reducing switch.
std::optional<SharpTree> sharp_tree(const Topology& topo, Routes& routes, const std::vector<DeviceId>& rail_gpus,
                                    std::string* why = nullptr);

}  // namespace collsim
