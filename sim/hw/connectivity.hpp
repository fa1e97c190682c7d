#pragma once
// Whether every GPU can reach every other GPU, in time linear in the size of
// the topology. GPUs are endpoints, never transit (see routes.hpp), so two
// GPUs are connected when they are linked directly or both touch the same
// connected component of the non-GPU devices.
#include <utility>
#include <vector>

#include "sim/hw/topology.hpp"

namespace collsim {

// For each GPU (in rank order) that cannot reach some GPU ranked before it,
// the pair (that earlier GPU, the GPU); at most `limit` pairs.
std::vector<std::pair<DeviceId, DeviceId>> disconnected_gpu_pairs(const Topology& topo, std::size_t limit);

}  // namespace collsim
