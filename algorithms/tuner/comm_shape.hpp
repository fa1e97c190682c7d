#pragma once
// What NCCL's tuner needs to know about a communicator on a topology: how
// many nodes and GPUs per node, the GPU generation, the bandwidth NCCL would
// plan with inside a node and across nodes, and which in-network reductions
// are available. A node is a set of GPUs joined without network links.
#include <vector>

#include "sim/hw/nodes.hpp"
#include "sim/hw/routes.hpp"

namespace collsim {

struct CommShape {
    int ranks = 0, nodes = 1, ppn = 1;
    GpuArch arch = GpuArch::unknown;
    double intra_bw = 0;  // GB/s per GPU toward its ring neighbour, at NCCL's link rates
    LinkClass intra_class = LinkClass::nvlink;
    bool intra_via_cpu = false;  // a ring hop inside a node crosses a CPU root complex
    double nic_bw = 0;           // GB/s of one NIC's network port
    int nics_per_node = 0;
    bool nvls = false;     // every GPU reaches an NVSwitch that reduces in the switch
    bool collnet = false;  // network switches reduce in the network (SHARP)
};

CommShape comm_shape(const Topology& topo, Routes& routes, const std::vector<DeviceId>& ranks);

}  // namespace collsim
