#include <catch2/catch.hpp>

#include "sim/exec/step_costs.hpp"
#include "sim/hw/routes.hpp"
#include "sim/hw/topology_loader.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/topology_inputs.hpp"

using namespace collsim;
using namespace collsim::literals;

namespace {
// Two GPUs, each behind its own NIC, one switch between: a network step.
std::string two_nodes(const std::string& nic_fields) {
    return R"(name: two
devices:
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g1, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: n0, kind: nic, latency: 600ns)" + nic_fields + R"(}
  - {name: n1, kind: nic, latency: 600ns)" + nic_fields + R"(}
  - {name: sw, kind: switch, latency: 300ns}
links:
  - {a: g0, b: n0, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
  - {a: g1, b: n1, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
  - {a: n0, b: sw, kind: network, bandwidth: 400Gb/s, latency: 50ns}
  - {a: n1, b: sw, kind: network, bandwidth: 400Gb/s, latency: 50ns}
)";
}
}  // namespace

TEST_CASE("a NIC names its transport, ib unless it says otherwise") {
    const Topology plain = parse_topology(two_nodes(""), "t.yaml");
    CHECK(plain.device(*plain.find("n0")).transport == NetTransport::ib);
    const Topology efa = parse_topology(two_nodes(", transport: efa, software_latency: 20us"), "t.yaml");
    CHECK(efa.device(*efa.find("n0")).transport == NetTransport::efa);
    CHECK(efa.device(*efa.find("n0")).software_latency == 20_us);
    CHECK_THAT(test::topology_error(two_nodes(", transport: verbs")),
               Catch::Contains("devices[2].transport: expected one of ib, roce, efa, tcpx, socket, found 'verbs'"));
    CHECK_THAT(test::topology_error(R"(name: x
devices:
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s, software_latency: 1us}
links: []
)"),
               Catch::Contains("devices[0].software_latency: expected software_latency only on a nic, found it on a gpu"));
}

TEST_CASE("a network step pays NCCL's NET latency or its hardware path's, and its NICs' software path on top") {
    // Ring/LL over the network: NCCL's 2.7 us (tuning.cc hwLatencies[NET]).
    const Protocol ll = *nccl_protocol(NcclFamily::ring, ProtoKind::ll);
    const Topology plain = parse_topology(two_nodes(""), "t.yaml");
    Routes routes(plain);
    const Path p = routes.path(plain.gpus()[0], plain.gpus()[1]);
    // 4 links x 50 ns, two NICs x 600 ns and the switch's 300 ns: 1.7 us,
    // inside NCCL's figure, so the step takes 2.7 us, not 4.4.
    REQUIRE(p.latency == 1700_ns);
    CHECK(step_latency(p, ll, true) == 2700_ns);
    CHECK(step_latency(p, ll, false) == 1700_ns);
    // A path longer than NCCL's figure counts as itself.
    Path far = p;
    far.latency = 5_us;
    CHECK(step_latency(far, ll, true) == 5_us);
    // Each end's software path adds to the step.
    const Topology efa = parse_topology(two_nodes(", transport: efa, software_latency: 20us"), "t.yaml");
    Routes efa_routes(efa);
    CHECK(step_latency(efa_routes.path(efa.gpus()[0], efa.gpus()[1]), ll, true) == 42700_ns);
}

TEST_CASE("an EFA network step pays the 75 us aws-ofi-nccl reports to NCCL's tuner") {
    // aws-ofi-nccl's platform table (src/platform-aws.cpp, platform_data_map)
    // reports .latency = 75.0 us for p4d, p4de and p5; NCCL adds it to every
    // network step (tuning.cc: interLat += latencyInter). The p4de topology
    // gives each EFA NIC half, paid at each end of a step.
    const Topology t = load_topology(test::source_path("validation/data/topologies/aws-p4de-2node.yaml"));
    Routes routes(t);
    const Path p = routes.path(*t.find("n0_gpu0"), *t.find("n1_gpu0"));
    CHECK(p.link_class == LinkClass::net);
    CHECK(p.software_latency == 75_us);
    // Ring/LL: NCCL's 2.7 us NET step, or the path's hardware where longer, plus the plugin's 75 us.
    const Protocol ll = *nccl_protocol(NcclFamily::ring, ProtoKind::ll);
    CHECK(step_latency(p, ll, true) == std::max(p.latency, 2700_ns) + 75_us);
    CHECK(step_latency(p, ll, true) > 77_us);
}
