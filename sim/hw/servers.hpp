#pragma once
// Servers of a topology, as the hierarchical algorithms see them: GPUs that
// reach each other without crossing a network link (over NVLink, NVSwitch,
// PCIe or the CPU interconnect) share a server. An NVLink domain that spans
// several trays (GB200 NVL72) is one server by this rule, which is what NCCL's
// intra-node phase also uses.
#include <vector>

#include "sim/hw/topology.hpp"

namespace collsim {

// For every device, the index of its server; servers are numbered in the
// order their first device is declared.
std::vector<int> server_of_devices(const Topology& topo);

}  // namespace collsim
