// A root complex with a memory_bandwidth stages GPU traffic through host
// memory (no PCIe peer-to-peer, as on GeForce cards): every flow crossing it
// shares that bandwidth on top of its PCIe links.
#include <catch2/catch.hpp>

#include "sim/exec/executor.hpp"
#include "sim/hw/pcie.hpp"
#include "sim/hw/topology_loader.hpp"

using namespace collsim;

namespace {
// Time for `senders` GPUs of rtx4090-4gpu.yaml to each send `bytes` to the
// next GPU at once.
double seconds(int senders, int64_t bytes) {
    const Topology t = load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/rtx4090-4gpu.yaml");
    Simulator sim;
    Network net(sim, network_resources(t));
    Routes routes(t);
    Executor exec(sim, net, routes, t, t.gpus(), *nccl_protocol(NcclFamily::ring, ProtoKind::simple));
    Schedule s;
    s.ranks = 4;
    for (int r = 0; r < senders; ++r) {
        Step st;
        st.kind = StepKind::send;
        st.rank = r;
        st.peer = (r + 1) % 4;
        st.bytes = Bytes(bytes);
        s.add(st);
    }
    Time end{};
    exec.start(s, [&] { end = sim.now(); });
    sim.run();
    return end.us() * 1e-6;
}

// Seconds per extra byte: the latencies cancel.
double per_byte(int senders) { return (seconds(senders, 512'000'000) - seconds(senders, 256'000'000)) / 256e6; }
}  // namespace

TEST_CASE("GPUs without peer-to-peer share the host memory bandwidth") {
    // One flow: its Gen4 x16 links (31.5 GB/s) are the bottleneck, not host
    // memory (102.4 GB/s). Four flows: 102.4 / 4 = 25.6 GB/s each, below PCIe.
    const double one = per_byte(1), four = per_byte(4);
    CHECK(four / one == Approx(31.507692307 / 25.6).epsilon(1e-6));
}

namespace {
// Two GPUs under one PCIe switch below a root complex; `host` and `extra`
// complete the device and link lists.
Topology under_one_switch(const std::string& host, const std::string& extra_links = "") {
    return parse_topology(R"(name: pix
devices:
  - {name: g0, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: g1, kind: gpu, memory_bandwidth: 1TB/s}
  - {name: sw, kind: pcie_switch, latency: 100ns}
  - )" + host + R"(
links:
  - {a: g0, b: sw, kind: pcie, gen: 3, lanes: 16, latency: 10ns}
  - {a: g1, b: sw, kind: pcie, gen: 3, lanes: 16, latency: 10ns}
  - {a: sw, b: cpu, kind: pcie, gen: 3, lanes: 16, latency: 10ns}
)" + extra_links,
                          "pix.yaml");
}

std::vector<std::string> devices_on(const Topology& t, const Path& p) {
    std::vector<std::string> names;
    for (ChannelId c : p.channels) names.push_back(t.device(t.channel_target(c)).name);
    return names;
}
}  // namespace

TEST_CASE("GPUs under one PCIe switch of a host without peer-to-peer meet at its root complex") {
    const Topology staged = under_one_switch("{name: cpu, kind: root_complex, latency: 1us, memory_bandwidth: 100GB/s}");
    Routes routes(staged);
    const Path p = routes.path(0, 1);
    CHECK(devices_on(staged, p) == std::vector<std::string>{"sw", "cpu", "sw", "g1"});
    CHECK(p.latency == Time::from_ps((4 * 10 + 2 * 100 + 1000) * 1000));
    CHECK(routes.hops(0, 1) == 4);
    CHECK(routes.path_count(0, 1) == 1);
    CHECK(send_resources(staged, p).back() == memory_resource(staged, 3));
    // Both directions at once share the switch's uplink: each gets half of it.
    Simulator sim;
    Network net(sim, network_resources(staged));
    const Bytes bytes(1'000'000'000);
    Time done[2];
    for (DeviceId g : {0u, 1u})
        net.start_flow(send_resources(staged, routes.path(g, 1 - g)), bytes, Time{}, [&, g] { done[g] = sim.now(); });
    sim.run();
    const double uplink = static_cast<double>(pcie_bandwidth(3, 16)->bps());
    CHECK(done[0].us() * 1e-6 == Approx(2 * 1e9 / uplink).epsilon(1e-6));
    CHECK(done[1] == done[0]);
}

TEST_CASE("GPUs under one PCIe switch turn around in it when the host allows peer-to-peer, and NVLink wins over both") {
    const Topology p2p = under_one_switch("{name: cpu, kind: root_complex, latency: 1us}");
    CHECK(devices_on(p2p, Routes(p2p).path(0, 1)) == std::vector<std::string>{"sw", "g1"});
    const Topology bridged =
        under_one_switch("{name: cpu, kind: root_complex, latency: 1us, memory_bandwidth: 100GB/s}",
                         "  - {a: g0, b: g1, kind: nvlink, bandwidth: 50GB/s, latency: 10ns}\n");
    CHECK(devices_on(bridged, Routes(bridged).path(0, 1)) == std::vector<std::string>{"g1"});
}
