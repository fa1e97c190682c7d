#include <catch2/catch.hpp>

#include <deque>
#include <queue>
#include <random>
#include <set>

#include <fmt/format.h>

#include "sim/hw/routes.hpp"
#include "sim/hw/topology_loader.hpp"

using namespace collsim;

namespace {
// The plain single-source answer the bidirectional search must agree with:
// widest bottleneck by a full Dijkstra, then hop levels and path counts by a
// full BFS over links at least that wide; GPUs never transit.
struct Reference {
    uint64_t count = 0;
    int hops = -1;
    int64_t floor = 0;
};

Reference reference(const Topology& t, DeviceId src, DeviceId dst) {
    const auto& g = t.graph();
    const std::size_t n = t.devices().size();
    auto transit = [&](DeviceId v) { return v == src || t.device(v).kind != DeviceKind::gpu; };
    auto bw = [&](ChannelId c) { return t.link(Topology::link_of(c)).bandwidth.bps(); };
    std::vector<int64_t> best(n, 0);
    best[src] = INT64_MAX;
    std::priority_queue<std::pair<int64_t, DeviceId>> q;
    q.push({INT64_MAX, src});
    while (!q.empty()) {
        auto [b, v] = q.top();
        q.pop();
        if (b < best[v] || !transit(v)) continue;
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
            auto w = static_cast<DeviceId>(boost::target(*e, g));
            int64_t through = std::min(b, bw(g[*e].channel));
            if (through > best[w]) best[w] = through, q.push({through, w});
        }
    }
    Reference r;
    r.floor = best[dst];
    if (r.floor == 0) return r;
    std::vector<int> level(n, -1);
    std::vector<uint64_t> count(n, 0);
    level[src] = 0;
    count[src] = 1;
    std::deque<DeviceId> bfs{src};
    while (!bfs.empty()) {
        DeviceId v = bfs.front();
        bfs.pop_front();
        if (!transit(v)) continue;
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
            if (bw(g[*e].channel) < r.floor) continue;
            auto w = static_cast<DeviceId>(boost::target(*e, g));
            if (level[w] < 0) level[w] = level[v] + 1, bfs.push_back(w);
            if (level[w] == level[v] + 1) count[w] += count[v];
        }
    }
    r.count = count[dst];
    r.hops = level[dst];
    return r;
}

Topology random_topology(uint32_t seed) {
    std::mt19937 rng(seed);
    const int gpus = 2 + static_cast<int>(rng() % 5), switches = 1 + static_cast<int>(rng() % 7);
    std::vector<Device> devices;
    for (int i = 0; i < gpus + switches; ++i) {
        Device d;
        d.name = fmt::format("d{}", i);
        d.kind = i < gpus ? DeviceKind::gpu : DeviceKind::network_switch;
        devices.push_back(d);
    }
    const int64_t widths[] = {50'000'000'000, 100'000'000'000, 450'000'000'000};
    std::vector<Link> links;
    const int count = gpus + switches + static_cast<int>(rng() % 12);
    for (int i = 0; i < count; ++i) {
        Link l;
        l.a = rng() % devices.size();
        l.b = rng() % devices.size();
        if (l.a == l.b) continue;
        l.bandwidth = Bandwidth::bytes_per_s(widths[rng() % 3]);
        links.push_back(l);
    }
    return Topology("random", "", std::move(devices), std::move(links));
}
}  // namespace

TEST_CASE("bidirectional routes agree with a full single-source search on random topologies") {
    for (uint32_t seed = 1; seed <= 300; ++seed) {
        Topology t = random_topology(seed);
        Routes routes(t);
        for (DeviceId s = 0; s < t.devices().size(); ++s) {
            for (DeviceId d = 0; d < t.devices().size(); ++d) {
                if (s == d) continue;
                INFO("seed " << seed << " " << s << " -> " << d);
                const Reference ref = reference(t, s, d);
                REQUIRE(routes.path_count(s, d) == ref.count);
                CHECK(routes.hops(s, d) == ref.hops);
                // Every indexed path is a distinct valid shortest path of the widest width.
                std::set<std::vector<ChannelId>> seen;
                for (uint64_t i = 0; i < std::min<uint64_t>(ref.count, 64); ++i) {
                    Path p = routes.path(s, d, i);
                    REQUIRE(static_cast<int>(p.channels.size()) == ref.hops);
                    CHECK(t.channel_source(p.channels.front()) == s);
                    CHECK(t.channel_target(p.channels.back()) == d);
                    for (std::size_t k = 1; k < p.channels.size(); ++k) {
                        CHECK(t.channel_target(p.channels[k - 1]) == t.channel_source(p.channels[k]));
                        CHECK(t.device(t.channel_source(p.channels[k])).kind != DeviceKind::gpu);
                    }
                    CHECK(p.bottleneck.bps() == ref.floor);
                    seen.insert(p.channels);
                }
                CHECK(seen.size() == std::min<uint64_t>(ref.count, 64));
            }
        }
    }
}

TEST_CASE("a route query on the 131,072-GPU cluster touches only its neighbourhood") {
    // The whole file must load and answer in seconds (BENCHMARKS.md); here one
    // cross-pod query on the 16,384-GPU file checks the route's shape.
    Topology t = load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/cluster-h100-2048n.yaml");
    Routes routes(t);
    const DeviceId a = *t.find("node0.gpu0"), b = *t.find("node2047.gpu5");
    // gpu pcie nic leaf spine core spine leaf nic pcie gpu: 10 hops. Each GPU
    // has its own NIC on its PCIe switch (rail 0 and rail 5), so the ECMP
    // choices are each of 32 pod spines above the source leaf, 8 cores in
    // that spine's group with 4 parallel links each, and 4 parallel links
    // down to the target pod's spine, which has one link to the target leaf.
    CHECK(routes.hops(a, b) == 10);
    CHECK(routes.path_count(a, b) == 32 * (8 * 4) * 4);
    CHECK(routes.first_hop_links(a, b) == 1);
    CHECK(routes.path(a, b, 12345).bottleneck.bps() == 50'000'000'000);
    CHECK(routes.cached_pairs() == 1);
}

TEST_CASE("the least-loaded path avoids busy channels and spreads ties") {
    // Two spines between two leaves: loads on one spine's links push the
    // choice to the other.
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
    const ChannelId up0 = 2 * 2;  // leaf0 -> spine0
    auto busy_spine0 = [&](ChannelId c) -> uint64_t { return c == up0 ? 3 : 0; };
    for (uint64_t tie = 0; tie < 8; ++tie) {
        Path p = routes.least_loaded_path(0, 1, busy_spine0, tie);
        CHECK(p.channels[1] == 2 * 3);  // leaf0 -> spine1
    }
    std::set<ChannelId> second_hops;
    for (uint64_t tie = 0; tie < 16; ++tie)
        second_hops.insert(routes.least_loaded_path(0, 1, [](ChannelId) -> uint64_t { return 0; }, tie).channels[1]);
    CHECK(second_hops.size() == 2);
}
