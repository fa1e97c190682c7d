#include <catch2/catch.hpp>

#include "sim/hw/name_glob.hpp"
#include "sim/hw/topology_loader.hpp"
#include "tests/support/topology_inputs.hpp"

using namespace collsim;
using namespace collsim::literals;

namespace {
const std::string kCluster = R"(schema: 1
name: o
templates:
  box:
    devices:
      - {name: gpu0, kind: gpu, memory_bandwidth: 1TB/s}
      - {name: gpu1, kind: gpu, memory_bandwidth: 1TB/s}
      - {name: sw, kind: pcie_switch, latency: 150ns}
      - {name: nic0, kind: nic, latency: 600ns}
    links:
      - {a: gpu0, b: sw, kind: pcie, gen: 4, lanes: 16, latency: 50ns}
      - {a: gpu1, b: sw, kind: pcie, gen: 4, lanes: 16, latency: 50ns}
      - {a: nic0, b: sw, kind: pcie, gen: 4, lanes: 16, latency: 50ns}
nodes:
  - {template: box, count: 12}
fabrics:
  - {name: net, kind: fat_tree, endpoints: "node*.nic0", tiers: 1, radix: 16,
     link: {kind: network, bandwidth: 400Gb/s, latency: 100ns}, switch: {latency: 300ns}}
)";

const Link& link_between(const Topology& t, const std::string& a, const std::string& b) {
    const DeviceId x = *t.find(a), y = *t.find(b);
    for (const Link& l : t.links())
        if ((l.a == x && l.b == y) || (l.a == y && l.b == x)) return l;
    FAIL("no such link");
    return t.links().front();
}

}  // namespace

TEST_CASE("globs match names with *, ? and character sets") {
    CHECK(NameGlob("node*.nic0").matches("node17.nic0"));
    CHECK_FALSE(NameGlob("node*.nic0").matches("node17.nic1"));
    CHECK(NameGlob("node1?.gpu*").matches("node12.gpu3"));
    CHECK_FALSE(NameGlob("node1?.gpu*").matches("node1.gpu3"));
    CHECK(NameGlob("node[0-3].gpu[!0]").matches("node2.gpu5"));
    CHECK_FALSE(NameGlob("node[0-3].gpu[!0]").matches("node2.gpu0"));
    CHECK_FALSE(NameGlob("node[0-3].gpu1").matches("node4.gpu1"));
    CHECK(NameGlob("*").matches(""));
    CHECK(NameGlob("a*b*c").matches("aXbYbZc"));
    CHECK_FALSE(NameGlob("a*b*c").matches("aXbYbZ"));
    CHECK(NameGlob("gpu0").literal());
    CHECK_FALSE(NameGlob("gpu[01]").literal());
}

TEST_CASE("overrides change one node's slot, a degraded cable and a slower NIC") {
    Topology t = parse_topology(kCluster + R"(overrides:
  - {link: [node3.gpu1, node3.sw], lanes: 8}
  - {link: [node5.nic0, "net.*"], bandwidth: 200Gb/s}
  - {device: "node1[01].nic0", latency: 900ns}
)",
                                "t.yaml");
    const Link& slot = link_between(t, "node3.gpu1", "node3.sw");
    CHECK(slot.pcie_lanes == 8);
    CHECK(slot.pcie_gen == 4);
    CHECK(slot.bandwidth.bps() == 15'753'846'153);  // Gen4 x8
    CHECK(link_between(t, "node2.gpu1", "node2.sw").pcie_lanes == 16);
    CHECK(link_between(t, "net.leaf0", "node5.nic0").bandwidth.bps() == 25'000'000'000);
    CHECK(link_between(t, "net.leaf0", "node6.nic0").bandwidth.bps() == 50'000'000'000);
    CHECK(t.device(*t.find("node10.nic0")).forwarding_latency == 900_ns);
    CHECK(t.device(*t.find("node11.nic0")).forwarding_latency == 900_ns);
    CHECK(t.device(*t.find("node1.nic0")).forwarding_latency == 600_ns);
}

TEST_CASE("override errors name the override") {
    CHECK_THAT(test::topology_error(kCluster + "overrides:\n  - {device: node0.sw, memory_bandwidth: 1TB/s}\n"),
               Catch::Contains("overrides[0].memory_bandwidth: expected memory_bandwidth only on a gpu or a "
                               "root_complex, found 'node0.sw' matching pcie_switch 'node0.sw'"));
    CHECK_THAT(test::topology_error(kCluster + "overrides:\n  - {link: [node0.nic0, net.leaf0], lanes: 8}\n"),
               Catch::Contains("overrides[0].lanes: expected PCIe links given by gen + lanes"));
    CHECK_THAT(test::topology_error(kCluster + "overrides:\n  - {device: node0.sw}\n"),
               Catch::Contains("overrides[0]: expected at least one of latency, memory_bandwidth, "
                               "in_network_reduction to change, found only the pattern"));
    CHECK_THAT(test::topology_error(kCluster + "overrides:\n  - {device: node0.sw, link: [a, b], latency: 1ns}\n"),
               Catch::Contains("overrides[0]: expected either device: PATTERN or link: [PATTERN, PATTERN], found "
                               "both device and link"));
    CHECK_THAT(test::topology_error(kCluster + "overrides:\n  - {link: node0.sw, latency: 1ns}\n"),
               Catch::Contains("overrides[0].link: expected the link's two ends as patterns"));
}
