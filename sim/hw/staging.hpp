#pragma once
// Hosts without PCIe peer-to-peer. A root complex with a memory_bandwidth
// marks a host whose GPUs cannot reach each other over PCIe directly (a
// GeForce driver, or a P2P level that forbids it), so NCCL moves their data
// through host memory (its SHM transport). Two such GPUs under one PCIe
// switch then do not turn around in the switch: each transfer climbs to the
// root complex and comes back down, crossing the switch's uplink both ways.
#include <optional>

#include "sim/hw/topology.hpp"

namespace collsim {

// A root complex that stages GPU traffic in host memory (it has a memory_bandwidth).
bool stages_in_host_memory(const Device& d);

// The staging root complex that traffic between GPUs `a` and `b` must pass
// through, when their direct route is PCIe only and does not already cross
// one: the root complex with a memory_bandwidth that both reach over PCIe
// links and switches alone, fewest hops in all (ties: lowest id). nullopt
// when there is none, or when a or b is not a GPU.
std::optional<DeviceId> staging_root(const Topology& topo, DeviceId a, DeviceId b);

}  // namespace collsim
