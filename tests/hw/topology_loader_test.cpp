#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/hw/routes.hpp"
#include "sim/hw/topology_loader.hpp"
#include "tests/support/topology_inputs.hpp"
#include "tests/support/input_error.hpp"

using namespace collsim;
using namespace collsim::literals;

namespace {
const char* kTwoGpus = R"(name: two
devices:
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g1, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: sw, kind: pcie_switch, latency: 150ns}
links:
  - {a: g0, b: sw, kind: pcie, gen: 4, lanes: 16, latency: 50ns}
  - {a: g1, b: sw, kind: pcie, gen: 4, lanes: 8, latency: 50ns}
)";

// Loads `yaml` expecting failure; returns the error message.
std::string with_link(const std::string& link) {
    return std::string(R"(name: x
devices:
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g1, kind: gpu, memory_bandwidth: 1TB/s}
links:
  - )") + link + "\n";
}
}  // namespace

TEST_CASE("a PCIe link's bandwidth follows its generation and lane count") {
    Topology t = parse_topology(kTwoGpus, "t.yaml");
    REQUIRE(t.links().size() == 2);
    CHECK(t.links()[0].bandwidth.bps() == 31'507'692'307);  // Gen4 x16: 16 GT/s x 16 x 128/130 / 8
    CHECK(t.links()[1].bandwidth.bps() == 15'753'846'153);
    CHECK(t.gpus().size() == 2);
    CHECK(t.device(*t.find("sw")).forwarding_latency == 150_ns);
}

TEST_CASE("malformed YAML names the position") {
    auto msg = test::topology_error("name: x\ndevices: [ {name: g0\n");
    CHECK_THAT(msg, Catch::Contains("t.yaml:3:1"));
    CHECK_THAT(msg, Catch::Contains("well-formed YAML"));
}

TEST_CASE("a key given twice in a mapping is rejected, not read as its first value") {
    CHECK_THAT(test::topology_error("name: x\ndevices:\n  - {name: g0, kind: gpu, kind: nic}\nlinks: []\nname: y\n"),
               Catch::Contains("t.yaml:3:27: devices[0].kind: expected each key once in a mapping, found it again "
                               "(first at line 3)"));
    CHECK_THAT(test::topology_error("name: x\ndevices: []\nname: y\n"),
               Catch::Contains("t.yaml:3:1: name: expected each key once in a mapping, found it again (first at line 1)"));
    const std::string deep = "name: x\nlinks: " + std::string(300, '[') + std::string(300, ']') + "\n";
    CHECK_THAT(test::topology_error(deep), Catch::Contains("expected YAML nested at most 256 deep") &&
                                   Catch::Contains("(the nesting limits), found nesting 257 deep"));
}

TEST_CASE("a file cut inside its header comment is located at its end") {
    // Issue 24: "expected a mapping of fields, found nothing" without a place.
    CHECK_THAT(test::topology_error("# A topology\n# whose header comment is cu"),
               Catch::Contains("t.yaml:3:1: topology: expected a mapping of fields, found nothing"));
    CHECK_THAT(test::topology_error("# A topology\n"), Catch::Contains("t.yaml:2:1: topology: expected a mapping"));
    CHECK_THAT(test::topology_error(""), Catch::Contains("t.yaml:1:1: topology: expected a mapping"));
}

TEST_CASE("an unknown device kind is rejected with the choices") {
    auto msg = test::topology_error("name: x\ndevices:\n  - {name: g0, kind: tpu}\nlinks: []\n");
    CHECK_THAT(msg, Catch::Contains("t.yaml:3:22: devices[0].kind: expected one of gpu"));
    CHECK_THAT(msg, Catch::Contains("found 'tpu'"));
}

TEST_CASE("a link to a missing device names the link end") {
    auto msg = test::topology_error(with_link("{a: g0, b: nowhere, kind: nvlink, bandwidth: 50GB/s, latency: 1ns}"));
    CHECK_THAT(msg, Catch::Contains("t.yaml:6:16: links[0].b: expected the name of a device declared under devices"));
    CHECK_THAT(msg, Catch::Contains("'nowhere'"));
}

TEST_CASE("a bandwidth without a unit is rejected") {
    auto msg = test::topology_error(with_link("{a: g0, b: g1, kind: nvlink, bandwidth: 50, latency: 1ns}"));
    CHECK_THAT(msg, Catch::Contains("links[0].bandwidth: expected a unit after the number"));
    CHECK_THAT(msg, Catch::Contains("found '50'"));
}

TEST_CASE("a misspelled unit is rejected") {
    auto msg = test::topology_error(with_link("{a: g0, b: g1, kind: nvlink, bandwidth: 50GBps, latency: 1ns}"));
    CHECK_THAT(msg, Catch::Contains("links[0].bandwidth: expected a bandwidth unit"));
}

TEST_CASE("zero and negative bandwidths are rejected") {
    CHECK_THAT(test::topology_error(with_link("{a: g0, b: g1, kind: nvlink, bandwidth: 0GB/s, latency: 1ns}")),
               Catch::Contains("links[0].bandwidth: expected a positive bandwidth, found '0GB/s'"));
    CHECK_THAT(test::topology_error(with_link("{a: g0, b: g1, kind: nvlink, bandwidth: -5GB/s, latency: 1ns}")),
               Catch::Contains("links[0].bandwidth: expected a positive bandwidth, found '-5GB/s'"));
}

TEST_CASE("a negative latency is rejected") {
    CHECK_THAT(test::topology_error(with_link("{a: g0, b: g1, kind: nvlink, bandwidth: 5GB/s, latency: -1ns}")),
               Catch::Contains("links[0].latency: expected a time that is not negative"));
}

TEST_CASE("a GPU with no path to the others is reported") {
    auto msg = test::topology_error(R"(name: x
devices:
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g1, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g2, kind: gpu, memory_bandwidth: 1TB/s}
links:
  - {a: g0, b: g1, kind: nvlink, bandwidth: 50GB/s, latency: 1ns}
)");
    CHECK_THAT(msg, Catch::Contains("t.yaml:5:5: devices[2]: expected a GPU connected to the other GPUs"));
    CHECK_THAT(msg, Catch::Contains("no path between 'g0' and 'g2'"));
}

TEST_CASE("GPUs never forward traffic for others") {
    // g0 - g1 - g2 in a chain: g0 cannot reach g2 through g1.
    auto msg = test::topology_error(R"(name: x
devices:
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g1, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g2, kind: gpu, memory_bandwidth: 1TB/s}
links:
  - {a: g0, b: g1, kind: nvlink, bandwidth: 50GB/s, latency: 1ns}
  - {a: g1, b: g2, kind: nvlink, bandwidth: 50GB/s, latency: 1ns}
)");
    CHECK_THAT(msg, Catch::Contains("no path between 'g0' and 'g2'"));
}

TEST_CASE("unknown keys, missing fields and duplicate names are all reported in one pass") {
    auto msg = test::topology_error(R"(name: x
devices:
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s, colour: red}
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g2, kind: gpu}
links:
  - {a: g0, b: g2, kind: nvlink, latency: 1ns}
)");
    CHECK_THAT(msg, Catch::Contains("t.yaml:3:52: devices[0].colour: expected one of the keys"));
    CHECK_THAT(msg, Catch::Contains("devices[1].name: expected a device name not used before, found 'g0', already "
                                    "declared at line 3"));
    CHECK_THAT(msg, Catch::Contains("devices[2].memory_bandwidth: expected the GPU's memory bandwidth"));
    CHECK_THAT(msg, Catch::Contains("links[0].bandwidth: expected a bandwidth like '400Gb/s' or '50GB/s' (required)"));
}

TEST_CASE("PCIe generation and lane count are checked") {
    CHECK_THAT(test::topology_error(with_link("{a: g0, b: g1, kind: pcie, gen: 9, lanes: 16, latency: 1ns}")),
               Catch::Contains("links[0].gen: expected a PCIe generation from 1 to 6, found '9'"));
    CHECK_THAT(test::topology_error(with_link("{a: g0, b: g1, kind: pcie, gen: 4, lanes: 12, latency: 1ns}")),
               Catch::Contains("links[0].lanes: expected a lane count of 1, 2, 4, 8, 16 or 32, found '12'"));
    CHECK_THAT(test::topology_error(with_link("{a: g0, b: g1, kind: pcie, gen: 4, lanes: 8, bandwidth: 5GB/s, latency: 1ns}")),
               Catch::Contains("links[0].bandwidth: expected either bandwidth or gen + lanes, not both"));
}

TEST_CASE("a topology needs GPUs") {
    CHECK_THAT(test::topology_error("name: x\ndevices:\n  - {name: s, kind: nvswitch}\nlinks: []\n"),
               Catch::Contains("devices: expected at least one device of kind gpu, found none"));
}

TEST_CASE("routes prefer the widest path, then the fewest hops") {
    // g0 and g1 share a PCIe switch (2 hops) and an NVSwitch (2 hops): NVLink wins.
    Topology t = parse_topology(R"(name: x
devices:
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g1, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: nvs, kind: nvswitch, latency: 100ns}
  - {name: pcie, kind: pcie_switch, latency: 150ns}
links:
  - {a: g0, b: nvs, kind: nvlink, bandwidth: 450GB/s, latency: 100ns}
  - {a: g1, b: nvs, kind: nvlink, bandwidth: 450GB/s, latency: 100ns}
  - {a: g0, b: pcie, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
  - {a: g1, b: pcie, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
)",
                                "t.yaml");
    Routes routes(t);
    CHECK(routes.path_count(0, 1) == 1);
    Path p = routes.path(0, 1);
    CHECK(p.link_class == LinkClass::nvlink);
    CHECK(p.latency == 300_ns);
    CHECK(p.bottleneck.bps() == 450'000'000'000);
}

TEST_CASE("all equal-cost paths are kept and indexed") {
    // Two spine switches between two leaves: two equal paths.
    Topology t = parse_topology(R"(name: x
devices:
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g1, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: leaf0, kind: switch}
  - {name: leaf1, kind: switch}
  - {name: spine0, kind: switch}
  - {name: spine1, kind: switch}
links:
  - {a: g0, b: leaf0, kind: network, bandwidth: 400Gb/s, latency: 1ns}
  - {a: g1, b: leaf1, kind: network, bandwidth: 400Gb/s, latency: 1ns}
  - {a: leaf0, b: spine0, kind: network, bandwidth: 400Gb/s, latency: 1ns}
  - {a: leaf0, b: spine1, kind: network, bandwidth: 400Gb/s, latency: 1ns}
  - {a: leaf1, b: spine0, kind: network, bandwidth: 400Gb/s, latency: 1ns}
  - {a: leaf1, b: spine1, kind: network, bandwidth: 400Gb/s, latency: 1ns}
)",
                                "t.yaml");
    Routes routes(t);
    REQUIRE(routes.path_count(0, 1) == 2);
    Path a = routes.path(0, 1, 0), b = routes.path(0, 1, 1);
    CHECK(a.channels.size() == 4);
    CHECK(a.channels != b.channels);
    CHECK(routes.path(0, 1, 2).channels == a.channels);  // index wraps
    CHECK(a.link_class == LinkClass::net);
}

TEST_CASE("every shipped topology of the foundation loads") {
    for (const char* f : {"dgx-h100.yaml", "pcie-gen4-x16-8gpu.yaml", "pcie-gen4-x8-8gpu.yaml"}) {
        INFO(f);
        Topology t = load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/" + f);
        CHECK(t.gpus().size() == 8);
    }
}

TEST_CASE("in-network reduction is declared on switches only") {
    Topology t = parse_topology(R"(name: x
devices:
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g1, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: nvs, kind: nvswitch, in_network_reduction: true}
links:
  - {a: g0, b: nvs, kind: nvlink, bandwidth: 450GB/s, latency: 100ns}
  - {a: g1, b: nvs, kind: nvlink, bandwidth: 450GB/s, latency: 100ns}
)",
                                "t.yaml");
    CHECK(t.device(*t.find("nvs")).in_network_reduction);
    CHECK_FALSE(t.device(*t.find("g0")).in_network_reduction);
    CHECK_THAT(test::topology_error(R"(name: x
devices:
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s, in_network_reduction: true}
links: []
)"),
               Catch::Contains("devices[0].in_network_reduction: expected in_network_reduction only on an nvswitch or "
                               "a switch"));
    CHECK_THAT(test::topology_error(R"(name: x
devices:
  - {name: s, kind: nvswitch, in_network_reduction: yes please}
links: []
)"),
               Catch::Contains("devices[0].in_network_reduction: expected true or false, found 'yes please'"));
}

Topology shipped_dgx() { return load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/dgx-h100.yaml"); }

TEST_CASE("a GPU may name its architecture, which the NCCL tuner's tables need") {
    Topology t = shipped_dgx();
    CHECK(t.device(t.gpus()[0]).arch == GpuArch::hopper);
    CHECK_THAT(test::topology_error(R"(name: x
devices:
  - {name: g0, kind: gpu, arch: pascal, memory_bandwidth: 1TB/s}
links: []
)"),
               Catch::Contains("t.yaml:3:33: devices[0].arch: expected one of volta, turing, ampere, ada, hopper, "
                               "blackwell, found 'pascal'"));
    CHECK_THAT(test::topology_error(R"(name: x
devices:
  - {name: s, kind: nvswitch, arch: hopper}
links: []
)"),
               Catch::Contains("devices[0].arch: expected arch only on a gpu, found it on a nvswitch"));
}
