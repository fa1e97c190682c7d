#pragma once
// Small topologies built in tests, so that algorithms can be checked for any
// rank count: servers of GPUs on one NVSwitch, joined by one NIC per GPU to a
// single network switch (one port per NIC: no contention between servers).
#include <string>

#include "sim/hw/topology.hpp"

namespace collsim::test {

struct ClusterShape {
    int nodes = 1;
    int gpus_per_node = 8;
    bool nvls = false;   // the NVSwitch reduces in the switch
    bool sharp = false;  // the network switch reduces in the switch
};

// YAML text of the cluster; GPUs are named n<node>g<gpu> and declared node by node.
std::string cluster_yaml(const ClusterShape& shape);
Topology cluster(const ClusterShape& shape);

}  // namespace collsim::test
