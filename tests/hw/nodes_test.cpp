#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "sim/hw/nodes.hpp"
#include "sim/hw/routes.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/model/channel_layout.hpp"

using namespace collsim;

namespace {
// Two servers of five GPUs behind three PCIe switches: g0 and g1 share two
// NICs, g2 and g3 share one, g4 has two of its own.
Topology two_servers() {
    return parse_topology(R"(schema: 1
name: shared-nics
templates:
  server:
    devices:
      - {name: g0, kind: gpu, memory_bandwidth: 1TB/s}
      - {name: g1, kind: gpu, memory_bandwidth: 1TB/s}
      - {name: g2, kind: gpu, memory_bandwidth: 1TB/s}
      - {name: g3, kind: gpu, memory_bandwidth: 1TB/s}
      - {name: g4, kind: gpu, memory_bandwidth: 1TB/s}
      - {name: sw0, kind: pcie_switch, latency: 150ns}
      - {name: sw1, kind: pcie_switch, latency: 150ns}
      - {name: sw2, kind: pcie_switch, latency: 150ns}
      - {name: cpu, kind: root_complex, latency: 300ns}
      - {name: nic0, kind: nic, latency: 600ns}
      - {name: nic1, kind: nic, latency: 600ns}
      - {name: nic2, kind: nic, latency: 600ns}
      - {name: nic3, kind: nic, latency: 600ns}
      - {name: nic4, kind: nic, latency: 600ns}
    links:
      - {a: g0, b: sw0, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
      - {a: g1, b: sw0, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
      - {a: nic0, b: sw0, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
      - {a: nic1, b: sw0, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
      - {a: g2, b: sw1, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
      - {a: g3, b: sw1, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
      - {a: nic2, b: sw1, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
      - {a: g4, b: sw2, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
      - {a: nic3, b: sw2, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
      - {a: nic4, b: sw2, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
      - {a: sw0, b: cpu, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
      - {a: sw1, b: cpu, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
      - {a: sw2, b: cpu, kind: pcie, gen: 5, lanes: 16, latency: 50ns}
devices:
  - {name: fabric, kind: switch, latency: 300ns}
nodes:
  - {template: server, name: n0}
  - {template: server, name: n1}
links:
  - {a: n0.nic0, b: fabric, kind: network, bandwidth: 400Gb/s, latency: 50ns}
  - {a: n0.nic1, b: fabric, kind: network, bandwidth: 400Gb/s, latency: 50ns}
  - {a: n0.nic2, b: fabric, kind: network, bandwidth: 400Gb/s, latency: 50ns}
  - {a: n0.nic3, b: fabric, kind: network, bandwidth: 400Gb/s, latency: 50ns}
  - {a: n0.nic4, b: fabric, kind: network, bandwidth: 400Gb/s, latency: 50ns}
  - {a: n1.nic0, b: fabric, kind: network, bandwidth: 400Gb/s, latency: 50ns}
  - {a: n1.nic1, b: fabric, kind: network, bandwidth: 400Gb/s, latency: 50ns}
  - {a: n1.nic2, b: fabric, kind: network, bandwidth: 400Gb/s, latency: 50ns}
  - {a: n1.nic3, b: fabric, kind: network, bandwidth: 400Gb/s, latency: 50ns}
  - {a: n1.nic4, b: fabric, kind: network, bandwidth: 400Gb/s, latency: 50ns}
)",
                          "shared-nics.yaml");
}

DeviceId id(const Topology& t, const std::string& name) {
    auto d = t.find(name);
    REQUIRE(d);
    return *d;
}

std::vector<std::string> names(const Topology& t, const std::vector<DeviceId>& ids) {
    std::vector<std::string> out;
    for (DeviceId d : ids) out.push_back(t.device(d).name);
    return out;
}
}  // namespace

TEST_CASE("each GPU gets its own share of the NICs closest to it") {
    const Topology t = two_servers();
    const auto home = home_nics(t);
    using V = std::vector<std::string>;
    CHECK(names(t, home[id(t, "n0.g0")]) == V{"n0.nic0"});
    CHECK(names(t, home[id(t, "n0.g1")]) == V{"n0.nic1"});
    CHECK(names(t, home[id(t, "n0.g2")]) == V{"n0.nic2"});
    CHECK(names(t, home[id(t, "n0.g3")]) == V{"n0.nic2"});
    CHECK(names(t, home[id(t, "n0.g4")]) == V{"n0.nic3", "n0.nic4"});
    CHECK(names(t, home[id(t, "n1.g1")]) == V{"n1.nic1"});
    CHECK(home[id(t, "fabric")].empty());
}

TEST_CASE("a GPU's traffic to another node leaves and enters through the GPUs' own NICs") {
    const Topology t = two_servers();
    Routes routes(t);
    const DeviceId src = id(t, "n0.g1"), dst = id(t, "n1.g0");
    // Without the binding, either NIC behind each switch would tie: four paths.
    CHECK(routes.path_count(src, dst) == 1);
    const Path p = routes.path(src, dst, 3);
    std::set<std::string> via;
    for (ChannelId c : p.channels) via.insert(t.device(t.channel_target(c)).name);
    CHECK(via.count("n0.nic1"));
    CHECK(via.count("n1.nic0"));
    CHECK_FALSE(via.count("n0.nic0"));
    CHECK_FALSE(via.count("n1.nic1"));
    CHECK(routes.first_hop_links(src, dst) == 1);
    // A GPU with two NICs of its own keeps both for ECMP.
    CHECK(routes.path_count(id(t, "n0.g4"), id(t, "n1.g4")) == 4);
    // Paths inside a node are unchanged, and a route to another GPU's NIC
    // (not a GPU's own traffic) still exists.
    CHECK(routes.path_count(src, id(t, "n0.g0")) == 1);
    CHECK(routes.reachable(src, id(t, "n0.nic0")));
}

TEST_CASE("channels enter each node through different NICs where GPUs share one") {
    // g2 and g3 share nic2: rotating by the channel number would start
    // channels 2 and 3 on the same NIC.
    const Topology t = two_servers();
    const auto home = home_nics(t);
    Routes routes(t);
    const auto layout = rail_aligned_channels(routes, t.gpus(), 4, true);
    REQUIRE(layout.size() == 4);
    std::set<DeviceId> entry_nics;
    for (const auto& order : layout) entry_nics.insert(home[order.front()].front());
    CHECK(entry_nics.size() == 4);
    CHECK(t.device(layout[0].front()).name == "n0.g0");
    CHECK(t.device(layout[2].front()).name == "n0.g2");
    CHECK(t.device(layout[3].front()).name == "n0.g4");
}
