#include "tests/support/synthetic_topology.hpp"

#include <fmt/format.h>

#include "sim/hw/topology_loader.hpp"

namespace collsim::test {

// Figures as in topologies/dgx-h100.yaml (H100 HBM3, NVLink 4 through
// NVSwitch, PCIe Gen5 x16, ConnectX-7 400 Gb/s), where they are cited.
std::string cluster_yaml(const ClusterShape& s) {
    std::string devices, links;
    for (int n = 0; n < s.nodes; ++n) {
        for (int g = 0; g < s.gpus_per_node; ++g)
            devices += fmt::format("  - {{name: n{}g{}, kind: gpu, memory_bandwidth: 3.35TB/s}}\n", n, g);
        devices += fmt::format("  - {{name: n{}nvs, kind: nvswitch, latency: 100ns{}}}\n", n,
                               s.nvls ? ", in_network_reduction: true" : "");
        for (int g = 0; g < s.gpus_per_node; ++g) {
            links += fmt::format("  - {{a: n{0}g{1}, b: n{0}nvs, kind: nvlink, bandwidth: 450GB/s, latency: 100ns}}\n",
                                 n, g);
            if (s.nodes > 1) {
                devices += fmt::format("  - {{name: n{}nic{}, kind: nic, latency: 600ns}}\n", n, g);
                links += fmt::format("  - {{a: n{0}g{1}, b: n{0}nic{1}, kind: pcie, gen: 5, lanes: 16, latency: 50ns}}\n",
                                     n, g);
                links += fmt::format("  - {{a: n{0}nic{1}, b: fabric, kind: network, bandwidth: 400Gb/s, latency: 100ns}}\n",
                                     n, g);
            }
        }
    }
    if (s.nodes > 1)
        devices += fmt::format("  - {{name: fabric, kind: switch, latency: 300ns{}}}\n",
                               s.sharp ? ", in_network_reduction: true" : "");
    return fmt::format("name: synthetic-{}x{}\ndevices:\n{}links:\n{}", s.nodes, s.gpus_per_node, devices, links);
}

Topology cluster(const ClusterShape& shape) {
    return parse_topology(cluster_yaml(shape), fmt::format("synthetic-{}x{}", shape.nodes, shape.gpus_per_node));
}

}  // namespace collsim::test
