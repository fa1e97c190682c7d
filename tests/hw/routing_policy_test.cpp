// ECMP hash collisions as hot spots: on a 2:1 fat-tree, a permutation whose
// cross-leaf flows could each have their own uplink collides under ECMP and
// not under adaptive routing; the collision shows in the bytes the links
// carry and in the completion time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fmt/format.h>

#include "sim/exec/executor.hpp"
#include "sim/hw/topology_loader.hpp"

using namespace collsim;

namespace {
// Radix 16, 2:1: 8 GPUs per leaf, 4 uplinks; 64 GPUs fill 8 leaves whose 32
// uplinks go to 2 spines, 2 parallel links per leaf and spine.
Topology fat_tree_2to1() {
    std::string yaml = "schema: 1\nname: ft\ndevices:\n";
    for (int i = 0; i < 64; ++i) yaml += fmt::format("  - {{name: g{}, kind: gpu, memory_bandwidth: 2TB/s}}\n", i);
    yaml += R"(fabrics:
  - name: ft
    kind: fat_tree
    endpoints: "g*"
    tiers: 2
    radix: 16
    oversubscription: ["2:1"]
    link: {kind: network, bandwidth: 50GB/s, latency: 100ns}
    switch: {latency: 300ns}
)";
    return parse_topology(yaml, "t.yaml");
}

// On each leaf, GPUs 0-3 send to GPUs 4-7 of the next leaf (4 flows for 4
// uplinks) and GPUs 4-7 send to GPUs 0-3 of their own leaf.
constexpr int64_t kBytes = 64 << 20;

Schedule permutation(int senders = 64) {
    Schedule s;
    s.ranks = 64;
    for (int r = 0; r < senders; ++r) {
        const int leaf = r / 8, slot = r % 8;
        const int peer = slot < 4 ? ((leaf + 1) % 8) * 8 + slot + 4 : leaf * 8 + slot - 4;
        Step st;
        st.kind = StepKind::send;
        st.rank = r;
        st.peer = peer;
        st.bytes = Bytes(kBytes);
        s.add(st);
    }
    return s;
}

struct Outcome {
    Time time;
    std::vector<int64_t> carried;  // bytes per fabric channel
    int64_t max_flows_on_a_link = 0;
};

Outcome run(const Topology& t, RoutingMode mode, uint64_t seed, int senders = 64) {
    Simulator sim;
    Network net(sim, network_resources(t));
    Routes routes(t);
    Executor exec(sim, net, routes, t, t.gpus(), *nccl_protocol(NcclFamily::ring, ProtoKind::simple), RoutingPolicy(mode, seed));
    Schedule s = permutation(senders);
    Outcome o;
    exec.start(s, [&] { o.time = sim.now(); });
    sim.run();
    for (ResourceId c = 0; c < t.channel_count(); ++c) {
        o.carried.push_back(net.carried(c).count());
        // Every flow carries the same bytes, so bytes / flow size = flows.
        o.max_flows_on_a_link = std::max(o.max_flows_on_a_link, net.carried(c).count() / kBytes);
    }
    return o;
}
}  // namespace

TEST_CASE("ECMP collisions are hot spots that adaptive routing avoids") {
    const Topology t = fat_tree_2to1();
    // One cross-leaf flow on an idle fabric: what every flow gets without sharing.
    const Time alone = run(t, RoutingMode::single, 1, 1).time;
    for (uint64_t seed : {1u, 2u, 3u}) {
        INFO("seed " << seed);
        const Outcome ecmp = run(t, RoutingMode::ecmp, seed);
        const Outcome adaptive = run(t, RoutingMode::adaptive, seed);
        // 8 leaves, each hashing 4 flows onto 4 uplinks: a collision-free
        // leaf has probability 4!/4^4 = 9%, so some link carries two flows.
        CHECK(ecmp.max_flows_on_a_link > 1);
        CHECK(adaptive.max_flows_on_a_link == 1);
        CHECK(ecmp.time > adaptive.time);
        // Adaptive: every flow has its links to itself.
        CHECK(adaptive.time == alone);
        // The same seed gives the same routes, to the byte and picosecond.
        const Outcome again = run(t, RoutingMode::ecmp, seed);
        CHECK(again.carried == ecmp.carried);
        CHECK(again.time == ecmp.time);
    }
    // Single-path routing piles each leaf's 4 cross flows onto path 0.
    CHECK(run(t, RoutingMode::single, 1).max_flows_on_a_link == 4);
}

TEST_CASE("different ECMP seeds hash flows onto different paths") {
    const Topology t = fat_tree_2to1();
    CHECK(run(t, RoutingMode::ecmp, 1).carried != run(t, RoutingMode::ecmp, 2).carried);
}

TEST_CASE("routing modes parse from their names") {
    CHECK(routing_mode_from("ecmp") == RoutingMode::ecmp);
    CHECK(routing_mode_from("single") == RoutingMode::single);
    CHECK(routing_mode_from("adaptive") == RoutingMode::adaptive);
    CHECK_FALSE(routing_mode_from("random").has_value());
}
