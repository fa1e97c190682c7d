#include <catch2/catch.hpp>

#include "sim/hw/analysis.hpp"
#include "sim/hw/max_flow.hpp"
#include "sim/hw/topology_loader.hpp"

using namespace collsim;

TEST_CASE("max flow finds the minimum cut, not the first path") {
    // The classic case where a greedy first path (0-1-2-3) would block the
    // two disjoint paths 0-1-3 and 0-2-3: the flow is 2 x 10.
    MaxFlow f(4);
    f.add_arc(0, 1, 10);
    f.add_arc(0, 2, 10);
    f.add_arc(1, 2, 10);
    f.add_arc(1, 3, 10);
    f.add_arc(2, 3, 10);
    CHECK(f.run(0, 3) == 20);
    MaxFlow bottleneck(3);
    bottleneck.add_arc(0, 1, 7);
    bottleneck.add_arc(1, 2, 3);
    CHECK(bottleneck.run(0, 2) == 3);
}

TEST_CASE("bisection bandwidth is the flow from the first half of the GPUs to the second") {
    // Two PCIe switches of two GPUs each, joined through the CPU by x16
    // uplinks: GPUs 0,1 | 2,3 split at the uplinks, 31.5 GB/s each way.
    Topology t = parse_topology(R"(name: x
devices:
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g1, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g2, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g3, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: s0, kind: pcie_switch}
  - {name: s1, kind: pcie_switch}
  - {name: cpu, kind: cpu}
links:
  - {a: g0, b: s0, kind: pcie, gen: 4, lanes: 16, latency: 50ns}
  - {a: g1, b: s0, kind: pcie, gen: 4, lanes: 16, latency: 50ns}
  - {a: g2, b: s1, kind: pcie, gen: 4, lanes: 16, latency: 50ns}
  - {a: g3, b: s1, kind: pcie, gen: 4, lanes: 16, latency: 50ns}
  - {a: s0, b: cpu, kind: pcie, gen: 4, lanes: 16, latency: 50ns}
  - {a: s1, b: cpu, kind: pcie, gen: 4, lanes: 16, latency: 50ns}
)",
                                "t.yaml");
    CHECK(bisection_bandwidth(t).bps() == 31'507'692'307);
    CHECK(gpu_diameter_hops(t) == 4);
}

TEST_CASE("the diameter counts only paths that do not pass through GPUs") {
    // g0 - g1 directly, both on sw, and g2 behind sw - far. g0 and g1 reach
    // g2 in 3 hops (g0 sw far g2); a path through g1 would not count anyway.
    Topology t = parse_topology(R"(name: x
devices:
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g1, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g2, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: sw, kind: nvswitch}
  - {name: far, kind: nvswitch}
links:
  - {a: g0, b: g1, kind: nvlink, bandwidth: 50GB/s, latency: 1ns}
  - {a: g0, b: sw, kind: nvlink, bandwidth: 50GB/s, latency: 1ns}
  - {a: g1, b: sw, kind: nvlink, bandwidth: 50GB/s, latency: 1ns}
  - {a: g2, b: far, kind: nvlink, bandwidth: 50GB/s, latency: 1ns}
  - {a: far, b: sw, kind: nvlink, bandwidth: 50GB/s, latency: 1ns}
)",
                                "t.yaml");
    CHECK(gpu_diameter_hops(t) == 3);  // g0 sw far g2
}
