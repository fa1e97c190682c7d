#pragma once
#include <string_view>
#include <vector>

#include "sim/hw/topology.hpp"

namespace collsim {

// A communicator's GPUs in rank order, from "0,2,4,6", "0-3,8-11" (indices
// into the topology's GPUs, in declaration order) or "node0.gpu0,node1.gpu0"
// (device names), mixed freely. Throws InputError naming `option`.
std::vector<DeviceId> parse_gpu_list(const Topology& topo, std::string_view text, std::string_view option);

}  // namespace collsim
