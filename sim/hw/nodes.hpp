#pragma once
// How a topology splits into nodes (servers), and which NIC each GPU's
// network traffic leaves through.
#include <cstdint>
#include <vector>

#include "sim/hw/topology.hpp"

namespace collsim {

// Node of every device (union of devices joined by non-network links).
std::vector<uint32_t> node_of_devices(const Topology& topo);

// Per device, the NICs its traffic to other nodes uses: for a GPU, a share of
// the NICs closest to it (fewest non-network hops), split among the GPUs that
// are equally close to them, as NCCL binds each GPU to its local NIC
// (ncclTopoGetLocalNet) instead of spreading one GPU over every NIC behind
// its PCIe switch. Empty for every other device and for GPUs without a NIC
// in their node.
std::vector<std::vector<DeviceId>> home_nics(const Topology& topo);

}  // namespace collsim
