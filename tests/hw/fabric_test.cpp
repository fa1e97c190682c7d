#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "sim/hw/analysis.hpp"
#include "sim/hw/routes.hpp"
#include "sim/hw/topology_loader.hpp"

using namespace collsim;

namespace {
// n GPUs g0..g{n-1} as the endpoints of one fabric given as YAML.
Topology gpus_on(int n, const std::string& fabric) {
    std::string yaml = "schema: 1\nname: f\ndevices:\n";
    for (int i = 0; i < n; ++i) yaml += fmt::format("  - {{name: g{}, kind: gpu, memory_bandwidth: 1TB/s}}\n", i);
    return parse_topology(yaml + "fabrics:\n" + fabric, "t.yaml");
}

std::size_t count_kind(const Topology& t, DeviceKind k) {
    std::size_t n = 0;
    for (const auto& d : t.devices()) n += d.kind == k;
    return n;
}

bool linked(const Topology& t, const std::string& a, const std::string& b) {
    const DeviceId x = *t.find(a), y = *t.find(b);
    for (const Link& l : t.links())
        if ((l.a == x && l.b == y) || (l.a == y && l.b == x)) return true;
    return false;
}

const char* kLink = "    link: {kind: network, bandwidth: 50GB/s, latency: 100ns}\n    switch: {latency: 300ns}\n";
}  // namespace

TEST_CASE("a 3-tier fat-tree of radix 4 is the classic k-ary fat-tree") {
    // k = 4: 16 hosts, 8 edge (leaf), 8 aggregation (pod spines), 4 core
    // switches, 16 + 16 + 16 links; (k/2)^2 = 4 paths between pods.
    Topology t = gpus_on(16, std::string("  - name: ft\n    kind: fat_tree\n    endpoints: \"g*\"\n    tiers: 3\n"
                                         "    radix: 4\n") + kLink);
    CHECK(count_kind(t, DeviceKind::network_switch) == 20);
    CHECK(t.links().size() == 48);
    CHECK(t.find("ft.leaf7").has_value());
    CHECK(t.find("ft.pod3.spine1").has_value());
    CHECK(t.find("ft.core3").has_value());
    Routes r(t);
    CHECK(r.path_count(*t.find("g0"), *t.find("g1")) == 1);   // same leaf
    CHECK(r.path_count(*t.find("g0"), *t.find("g2")) == 2);   // same pod
    CHECK(r.path_count(*t.find("g0"), *t.find("g15")) == 4);  // across pods
    CHECK(r.hops(*t.find("g0"), *t.find("g15")) == 6);
    CHECK(gpu_diameter_hops(t) == 6);
    CHECK(bisection_bandwidth(t).bps() == 8 * 50'000'000'000);  // full bisection
    REQUIRE(t.fabrics().size() == 1);
    CHECK(t.fabrics()[0].tiers.size() == 3);
    CHECK(t.fabrics()[0].tiers[1].switches == 8);
}

TEST_CASE("oversubscription tapers leaf uplinks and halves the bisection at 2:1") {
    // Radix 8: 4 endpoint ports per leaf; 2:1 leaves 2 uplinks. 16 endpoints
    // fill 4 leaves; their 8 uplinks fit one spine, with 2 parallel links per
    // leaf. The bisection is the 2 + 2 uplinks of one side's leaves.
    Topology t = gpus_on(16, std::string("  - name: ft\n    kind: fat_tree\n    endpoints: \"g*\"\n    tiers: 2\n"
                                         "    radix: 8\n    oversubscription: [\"2:1\"]\n") + kLink);
    CHECK(count_kind(t, DeviceKind::network_switch) == 5);
    CHECK(t.links().size() == 16 + 8);
    CHECK(bisection_bandwidth(t).bps() == 4 * 50'000'000'000);
    const FabricTier& leaf = t.fabrics()[0].tiers[0];
    CHECK(leaf.down_bps == 2 * leaf.up_bps);
    Routes r(t);
    CHECK(r.path_count(*t.find("g0"), *t.find("g4")) == 4);  // 2 up links x 2 down links
}

TEST_CASE("a rail-optimised fat-tree puts NIC i of every node on rail i's leaves") {
    std::string yaml = R"(schema: 1
name: rails
templates:
  box:
    devices:
      - {name: gpu0, kind: gpu, memory_bandwidth: 1TB/s}
      - {name: gpu1, kind: gpu, memory_bandwidth: 1TB/s}
      - {name: nic0, kind: nic}
      - {name: nic1, kind: nic}
    links:
      - {a: gpu0, b: nic0, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
      - {a: gpu1, b: nic1, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
nodes:
  - {template: box, count: 4}
fabrics:
  - name: net
    kind: rail_fat_tree
    endpoints: "node*.nic*"
    tiers: 2
    radix: 4
)";
    Topology t = parse_topology(yaml + kLink, "t.yaml");
    // 2 rails x 4 NICs, 2 per leaf: 4 leaves, leaf 0 of each rail first.
    CHECK(linked(t, "node0.nic0", "net.rail0.leaf0"));
    CHECK(linked(t, "node1.nic1", "net.rail1.leaf0"));
    CHECK(linked(t, "node3.nic0", "net.rail0.leaf1"));
    CHECK_FALSE(linked(t, "node0.nic1", "net.rail0.leaf0"));
    CHECK(count_kind(t, DeviceKind::network_switch) == 4 + 2);
    // Same rail, different leaves: leaf - spine - leaf, 2 spines.
    Routes r(t);
    CHECK(r.path_count(*t.find("node0.gpu0"), *t.find("node2.gpu0")) == 2);
    CHECK(r.hops(*t.find("node0.gpu0"), *t.find("node1.gpu0")) == 4);  // gpu nic leaf nic gpu
}

TEST_CASE("a multi-plane fabric gives every endpoint a port in every plane") {
    Topology t = gpus_on(4, std::string("  - name: mp\n    kind: fat_tree\n    endpoints: \"g*\"\n    tiers: 1\n"
                                        "    radix: 8\n    planes: 3\n") + kLink);
    CHECK(count_kind(t, DeviceKind::network_switch) == 3);
    CHECK(t.links().size() == 12);
    CHECK(linked(t, "g2", "mp.p2.leaf0"));
    Routes r(t);
    CHECK(r.path_count(0, 1) == 3);
    CHECK(r.first_hop_links(0, 1) == 3);
}

TEST_CASE("a torus links each router to its neighbours, wrapping around") {
    // 2 x 3 routers: the size-2 dimension has one link per pair (3), the
    // size-3 dimension wraps (3 per row, 2 rows), plus 6 endpoint links.
    Topology t = gpus_on(6, std::string("  - name: ici\n    kind: torus\n    endpoints: \"g*\"\n    dims: [2, 3]\n") +
                                kLink);
    CHECK(t.links().size() == 6 + 3 + 6);
    CHECK(linked(t, "ici.router0", "ici.router4"));  // (0,0) - (0,2) wraps
    CHECK(gpu_diameter_hops(t) == 2 + 2);              // farthest routers are 2 apart
}

TEST_CASE("a ring of N has a bisection of two links and a diameter of N/2 router hops") {
    Topology t = gpus_on(8, std::string("  - name: ring\n    kind: ring\n    endpoints: \"g*\"\n") + kLink);
    CHECK(t.links().size() == 8 + 8);
    CHECK(bisection_bandwidth(t).bps() == 2 * 50'000'000'000);
    CHECK(gpu_diameter_hops(t) == 2 + 4);
    Routes r(t);
    CHECK(r.path_count(*t.find("g0"), *t.find("g4")) == 2);  // both ways round
    Topology open_line = gpus_on(8, std::string("  - name: line\n    kind: ring\n    endpoints: \"g*\"\n    wrap: false\n") +
                                        kLink);
    CHECK(open_line.links().size() == 8 + 7);
    CHECK(gpu_diameter_hops(open_line) == 2 + 7);
}

TEST_CASE("fabric switches may declare in-network reduction, and may be NVSwitches") {
    Topology t = gpus_on(4, "  - name: nv\n    kind: fat_tree\n    endpoints: \"g*\"\n    tiers: 1\n    radix: 4\n"
                            "    link: {kind: nvlink, bandwidth: 900GB/s, latency: 100ns}\n"
                            "    switch: {kind: nvswitch, latency: 100ns, in_network_reduction: true}\n");
    const Device& sw = t.device(*t.find("nv.leaf0"));
    CHECK(sw.kind == DeviceKind::nvswitch);
    CHECK(sw.in_network_reduction);
}
