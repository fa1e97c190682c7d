#include <catch2/catch.hpp>

#include "sim/hw/topology_loader.hpp"
#include "sim/validate/calibration_scope.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;
using namespace collsim::literals;
using collsim::test::source_path;

namespace {
constexpr std::size_t kNet = static_cast<std::size_t>(LinkClass::net);
constexpr std::size_t kPci = static_cast<std::size_t>(LinkClass::pci);
const std::tuple kRingLl{CollOp::allreduce, NcclFamily::ring, ProtoKind::ll};

// A fit on a multi-node run: its network, its launch latency and its host's launch.
Calibration fitted() {
    Calibration c;
    c.bandwidth_efficiency[kNet] = 0.8;
    c.bandwidth_efficiency[kPci] = 0.7;
    c.hop_latency_delta[kNet] = 9_us;
    c.op_base_latency[kRingLl] = 20_us;
    c.launch_per_gpu = 6900_ns;  // the cs244 A100 VM's floor: 55 us at -g 8
    return c;
}
}  // namespace

TEST_CASE("a run's scope: its node count and, across nodes, its NICs' transports") {
    // The two Dell R760xa L40S runs: RoCE through NCCL's verbs transport, and TCP sockets.
    auto scope = [](const char* topology, int nodes) {
        Dataset d;
        d.nodes = nodes;
        return run_scope(d, load_topology(source_path(topology)));
    };
    const RunScope roce = scope("validation/data/topologies/l40s-2node-2gpn-roce.yaml", 2);
    const RunScope tcp = scope("validation/data/topologies/l40s-2node-1gpn-tcp.yaml", 2);
    CHECK(roce.multi_node);
    CHECK(roce.transports == std::set<NetTransport>{NetTransport::roce});
    CHECK(tcp.transports == std::set<NetTransport>{NetTransport::socket});
    CHECK(scope("validation/data/topologies/l40s-2node-2gpn-roce.yaml", 1) == RunScope{});
}

TEST_CASE("a fit carries to another run only what that run shares with the fitting run") {
    const Calibration start;
    const RunScope one_node{}, roce{true, {NetTransport::roce}}, socket{true, {NetTransport::socket}};
    // Same transport across nodes: the network and the launch latency carry; the host's launch never does.
    const Calibration same = carried_calibration(fitted(), start, roce, roce);
    CHECK(same.bandwidth_efficiency[kNet] == 0.8);
    CHECK(same.hop_latency_delta[kNet] == 9_us);
    CHECK(same.op_base_latency.at(kRingLl) == 20_us);
    CHECK(same.launch_per_gpu == kDefaultLaunchPerGpu);
    // RoCE's fit on a TCP-socket run (the R760xa pair: 12% with defaults,
    // 26% with the fit carried whole): only the PCI factor carries.
    const Calibration other = carried_calibration(fitted(), start, roce, socket);
    CHECK(other.bandwidth_efficiency[kPci] == 0.7);
    CHECK(other.bandwidth_efficiency[kNet] == 1.0);
    CHECK(other.hop_latency_delta[kNet] == 0_us);
    CHECK(other.op_base_latency.empty());
    // Fitted across nodes, carried to one node: the launch latency stays at the start.
    const Calibration down = carried_calibration(fitted(), start, roce, one_node);
    CHECK(down.op_base_latency.empty());
    CHECK(down.bandwidth_efficiency[kPci] == 0.7);
    // One node to one node: the launch latency carries.
    CHECK(carried_calibration(fitted(), start, one_node, one_node).op_base_latency.at(kRingLl) == 20_us);
}
