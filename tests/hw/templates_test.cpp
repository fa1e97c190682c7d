#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/hw/topology_loader.hpp"
#include "tests/support/topology_inputs.hpp"

using namespace collsim;
using namespace collsim::literals;

namespace {

// A server: two GPUs on a PCIe switch with one NIC; a top switch joins the NICs.
const char* kTwoServers = R"(schema: 1
name: two
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
devices:
  - {name: head, kind: gpu, memory_bandwidth: 2TB/s}
  - {name: top, kind: switch, latency: 300ns}
nodes:
  - {template: box, count: 2}
  - {template: box, count: 1, prefix: spare}
links:
  - {a: head, b: top, kind: network, bandwidth: 400Gb/s, latency: 100ns}
  - {a: node0.nic0, b: top, kind: network, bandwidth: 400Gb/s, latency: 100ns}
  - {a: node1.nic0, b: top, kind: network, bandwidth: 400Gb/s, latency: 100ns}
  - {a: spare0.nic0, b: top, kind: network, bandwidth: 400Gb/s, latency: 100ns}
)";
}  // namespace

TEST_CASE("node templates are instantiated with prefixed names, in rank order") {
    Topology t = parse_topology(kTwoServers, "t.yaml");
    REQUIRE(t.gpus().size() == 7);
    // Explicit devices first, then node instances node-major.
    const char* order[] = {"head", "node0.gpu0", "node0.gpu1", "node1.gpu0", "node1.gpu1", "spare0.gpu0", "spare0.gpu1"};
    for (std::size_t r = 0; r < 7; ++r) CHECK(t.device(t.gpus()[r]).name == order[r]);
    REQUIRE(t.instances().size() == 3);
    CHECK(t.instances()[1].name == "node1");
    CHECK(t.instances()[1].template_name == "box");
    CHECK(t.instances()[1].size == 4);
    CHECK(t.device(t.instances()[1].first).name == "node1.gpu0");
    // Template links are copied per instance: 3 per box, plus 4 explicit.
    CHECK(t.links().size() == 3 * 3 + 4);
    CHECK(t.device(*t.find("node1.sw")).forwarding_latency == 150_ns);
}

TEST_CASE("templates nest, and a template can be another topology file") {
    Topology t = load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/cluster-h100-2n.yaml");
    CHECK(t.find("node1.gpu7").has_value());
    CHECK(t.find("node1.nvswitch").has_value());
    CHECK(t.device(*t.find("node0.nvswitch")).in_network_reduction);

    Topology nested = parse_topology(R"(schema: 1
name: nested
templates:
  gpu: {devices: [{name: g, kind: gpu, memory_bandwidth: 1TB/s}]}
  pair:
    devices: [{name: sw, kind: nvswitch}]
    nodes: [{template: gpu, count: 2, prefix: slot}]
    links:
      - {a: slot0.g, b: sw, kind: nvlink, bandwidth: 100GB/s, latency: 10ns}
      - {a: slot1.g, b: sw, kind: nvlink, bandwidth: 100GB/s, latency: 10ns}
nodes:
  - {template: pair, name: only}
)",
                                     "t.yaml");
    REQUIRE(nested.gpus().size() == 2);
    CHECK(nested.device(nested.gpus()[1]).name == "only.slot1.g");
    CHECK(nested.instances().size() == 1);
}

TEST_CASE("template errors are reported once, with the template's path") {
    auto msg = test::topology_error(R"(schema: 1
name: x
templates:
  box:
    devices:
      - {name: g, kind: gpu}
nodes:
  - {template: box, count: 3}
)");
    CHECK_THAT(msg, Catch::Contains("t.yaml:6:9: templates.box.devices[0].memory_bandwidth: expected the GPU's memory "
                                    "bandwidth"));
    CHECK(msg.find('\n') == std::string::npos);
}

TEST_CASE("a topology past the device limit is refused before its nodes are copied") {
    // Issue 24: a 10^6-GPU fabric took gigabytes and minutes before any answer.
    const std::string head = "schema: 1\nname: x\ntemplates:\n  b: {devices: [{name: g0, kind: gpu, memory_bandwidth: "
                             "1TB/s}, {name: g1, kind: gpu, memory_bandwidth: 1TB/s}]}\n";
    CHECK_THAT(test::topology_error(head + "nodes:\n  - {template: b, count: 600000}\n"),
               Catch::Contains("t.yaml:6:26: nodes[0].count: expected a topology of at most 1048576 devices (the "
                               "topology device limit), found 1200000 devices with these 600000 x b"));
}

TEST_CASE("a node count below one and a name with a count are rejected") {
    const std::string head = "schema: 1\nname: x\ntemplates:\n  b: {devices: [{name: g, kind: gpu, memory_bandwidth: 1TB/s}]}\n";
    CHECK_THAT(test::topology_error(head + "nodes:\n  - {template: b, count: 0}\n"),
               Catch::Contains("nodes[0].count: expected a node count from 1 to 1048576 (the node instance limit), found '0'"));
    CHECK_THAT(test::topology_error(head + "nodes:\n  - {template: b, count: 2, name: solo}\n"),
               Catch::Contains("nodes[0].name: expected either name (one node) or prefix and count, found name with a "
                               "count above 1"));
}
