#pragma once
// The NVSwitch that can reduce for a set of GPUs (NVLink SHARP): declared
// with in_network_reduction: true and linked to every one of them.
#include <optional>
#include <vector>

#include "sim/hw/topology.hpp"

namespace collsim {

std::optional<DeviceId> reducing_nvswitch(const Topology& topo, const std::vector<DeviceId>& gpus);

}  // namespace collsim
