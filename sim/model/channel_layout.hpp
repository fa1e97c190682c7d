#pragma once
// How NCCL lays its channels over the GPUs of a multi-node communicator, so
// that the simulated channels leave and enter nodes through different NICs.
#include <vector>

#include "sim/hw/routes.hpp"

namespace collsim {

// Per channel, the GPU that plays each rank position. Inside each node the
// ranks are rotated so that channel c starts at a GPU of the node's c-th NIC
// (home_nics), i.e. by c where every GPU has its own NIC. With `alternate` (rings and
// chains), every other node runs the rotation backwards, so that a ring
// leaves a node from the GPU (and NIC rail) on which it enters the next:
// NCCL's graph search builds its inter-node rings rail-aligned the same way.
// Without it, the same position is the same rail in every node, as trees
// (node heads), rails and pairwise exchanges across nodes need. Empty for a
// single node.
std::vector<std::vector<DeviceId>> rail_aligned_channels(const Routes& routes, const std::vector<DeviceId>& ranks,
                                                         int channels, bool alternate);

}  // namespace collsim
