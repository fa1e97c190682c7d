#include <catch2/catch.hpp>

#include "algorithms/tuner/tuner.hpp"
#include "sim/hw/topology_loader.hpp"

using namespace collsim;

namespace {
const NcclCost& cost(const std::vector<NcclCost>& costs, NcclFamily f, ProtoKind p) {
    for (const auto& c : costs)
        if (c.family == f && c.proto == p) return c;
    FAIL("no such candidate");
    return costs.front();
}

CommShape h100_node() {
    CommShape s;
    s.ranks = 8;
    s.nodes = 1;
    s.ppn = 8;
    s.arch = GpuArch::hopper;
    s.intra_bw = 370.8;
    s.intra_class = LinkClass::nvlink;
    return s;
}

// Two Ada GPUs on PCIe whose path crosses the CPU, where NCCL leaves LL128 off.
CommShape ada_pair_via_cpu() {
    CommShape s = h100_node();
    s.ranks = 2;
    s.ppn = 2;
    s.arch = GpuArch::ada;
    s.intra_class = LinkClass::pci;
    s.intra_bw = 24;
    s.intra_via_cpu = true;
    return s;
}
}  // namespace

TEST_CASE("NCCL's latency model reproduces its worked examples on an H100 node") {
    // MODEL-FACTS.md section 6, worked example (NCCL v2.30.7 constants).
    auto costs = nccl_costs(h100_node(), CollOp::allreduce, 8);
    CHECK(cost(costs, NcclFamily::ring, ProtoKind::ll).latency_us == Approx(15.0));
    CHECK(cost(costs, NcclFamily::ring, ProtoKind::ll128).latency_us == Approx(40.6));
    CHECK(cost(costs, NcclFamily::ring, ProtoKind::simple).latency_us == Approx(56.0));
    CHECK(cost(costs, NcclFamily::tree, ProtoKind::ll).latency_us == Approx(15.2));
    CHECK(cost(costs, NcclFamily::tree, ProtoKind::simple).latency_us == Approx(64.4));
    CHECK_FALSE(cost(costs, NcclFamily::nvls, ProtoKind::simple).eligible);
    CHECK_FALSE(cost(costs, NcclFamily::nvls, ProtoKind::ll).eligible);
}

TEST_CASE("each protocol carries its ceiling from NCCL's caps, which the tuner hands on") {
    // MODEL-FACTS.md section 4: llMaxBw, perChMaxRingLL128Bw, perChMaxTreeBw (Hopper, one node).
    const CommShape s = h100_node();
    const int ch = nccl_channels(s).count;
    auto costs = nccl_costs(s, CollOp::allreduce, 1 << 30);
    CHECK(cost(costs, NcclFamily::ring, ProtoKind::ll).ceiling_GBps == Approx(141.0));
    CHECK(cost(costs, NcclFamily::ring, ProtoKind::ll128).ceiling_GBps == Approx(ch * 36.7));
    CHECK(cost(costs, NcclFamily::ring, ProtoKind::simple).ceiling_GBps == 0);
    CHECK(cost(costs, NcclFamily::tree, ProtoKind::simple).ceiling_GBps == Approx(ch * 38.7));
    const auto ll = tune(s, CollOp::allreduce, Bytes(1 << 30), "ring", "ll");
    REQUIRE(ll);
    CHECK(ll->ceiling_GBps == Approx(141.0));
}

TEST_CASE("NCCL's multi-node ring latency counts network steps and the plateau factor") {
    // 16 nodes x 8 GPUs, ring Simple: 8.4 + 224 x 3.4 + 30 x 14 = 1190 us
    // (MODEL-FACTS.md section 6), x1.4 once each channel's share of the
    // message per rank reaches 64 bytes.
    CommShape s = h100_node();
    s.ranks = 128;
    s.nodes = 16;
    s.nic_bw = 50;
    s.nics_per_node = 8;
    CHECK(cost(nccl_costs(s, CollOp::allreduce, 8), NcclFamily::ring, ProtoKind::simple).latency_us ==
          Approx(1190.0));
    CHECK(cost(nccl_costs(s, CollOp::allreduce, 1 << 30), NcclFamily::ring, ProtoKind::simple).latency_us ==
          Approx(1190.0 * 1.4));
}

TEST_CASE("on an 8-GPU NVSwitch node the tuner takes LL for small AllReduce and Simple for large") {
    const CommShape s = h100_node();
    auto small = tune(s, CollOp::allreduce, Bytes(1024), "auto", "auto");
    REQUIRE(small);
    CHECK(small->algo == "ring");
    CHECK(small->proto == ProtoKind::ll);
    auto large = tune(s, CollOp::allreduce, Bytes(int64_t{1} << 30), "auto", "auto");
    REQUIRE(large);
    CHECK(large->algo == "ring");
    CHECK(large->proto == ProtoKind::simple);
    CHECK_THAT(large->why, Catch::Contains("NCCL 2.30.7 cost model: ring/simple"));
}

TEST_CASE("a fixed protocol narrows the tuner's candidates") {
    auto t = tune(h100_node(), CollOp::allreduce, Bytes(int64_t{1} << 30), "auto", "ll");
    REQUIRE(t);
    CHECK(t->proto == ProtoKind::ll);
}

TEST_CASE("NCCL launches fewer channels for small messages") {
    NcclChannels ch{16, 23.0, 16};
    CHECK(nccl_launch_channels(ch, ProtoKind::simple, NcclFamily::ring, 8, 8) == 1);
    CHECK(nccl_launch_channels(ch, ProtoKind::simple, NcclFamily::ring, 8, int64_t{1} << 30) == 16);
    // Simple keeps a channel only with 64 bytes per thread of 512: 32 KiB each.
    CHECK(nccl_launch_channels(ch, ProtoKind::simple, NcclFamily::ring, 8, 4 * 32768) == 4);
}

TEST_CASE("the communicator's shape comes from the topology") {
    const Topology t = load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/dgx-h100.yaml");
    Routes routes(t);
    const CommShape s = comm_shape(t, routes, t.gpus());
    CHECK(s.ranks == 8);
    CHECK(s.nodes == 1);
    CHECK(s.ppn == 8);
    CHECK(s.arch == GpuArch::hopper);
    CHECK(s.intra_class == LinkClass::nvlink);
    CHECK(s.intra_bw == Approx(450 * 20.6 / 25));
    CHECK_FALSE(s.intra_via_cpu);
    const Topology p = load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/pcie-gen4-x8-8gpu.yaml");
    Routes proutes(p);
    const CommShape ps = comm_shape(p, proutes, p.gpus());
    CHECK(ps.intra_class == LinkClass::pci);
    CHECK(ps.intra_via_cpu);  // GPU 1 to GPU 2 crosses the root complex
    auto choice = tune(ps, CollOp::allreduce, Bytes(1 << 20), "auto", "auto");
    REQUIRE(choice);
    CHECK(choice->proto != ProtoKind::ll128);
}

TEST_CASE("on 1,024 GPUs without in-network reduction the tuner takes tree with LL or LL128 up to 64 KiB") {
    // 128 DGX H100 nodes, 8 x 400 Gb/s NICs each; no switch declares SHARP, so
    // CollNet and (multi-node) NVLS cannot run.
    CommShape s = h100_node();
    s.ranks = 1024;
    s.nodes = 128;
    s.nic_bw = 50;
    s.nics_per_node = 8;
    auto usable = [](const std::string& name) { return name != "collnet" && name != "nvls"; };
    for (int64_t size = 8; size <= 64 * 1024; size *= 2) {
        auto t = tune(s, CollOp::allreduce, Bytes(size), "auto", "auto", usable);
        REQUIRE(t);
        INFO(size << " B: " << t->why);
        CHECK(t->algo == "tree");
        CHECK((t->proto == ProtoKind::ll || t->proto == ProtoKind::ll128));
    }
}

TEST_CASE("LL128 through the CPU is off unless NCCL_PROTO asks for it, as in NCCL") {
    CommShape s = ada_pair_via_cpu();
    for (int64_t bytes : {int64_t{8}, int64_t{1} << 20, int64_t{1} << 30}) {
        const auto tuned = tune(s, CollOp::allreduce, Bytes(bytes), "auto", "auto");
        REQUIRE(tuned);
        CHECK(tuned->proto != ProtoKind::ll128);
        const auto forced = tune(s, CollOp::allreduce, Bytes(bytes), "auto", "ll128");
        REQUIRE(forced);
        CHECK(forced->proto == ProtoKind::ll128);
    }
    s.intra_via_cpu = false;
    CHECK_FALSE(cost(nccl_costs(s, CollOp::allreduce, 1 << 20), NcclFamily::ring, ProtoKind::ll128).off_by_default);
}

TEST_CASE("NCCL_PROTO as a list turns the protocols it names on and the others off") {
    // Through the CPU LL128 is off by default; NCCL_PROTO=LL128,Simple turns it on and LL off.
    CommShape s = ada_pair_via_cpu();
    const ProtoSwitches listed{{ProtoKind::ll}, {ProtoKind::ll128, ProtoKind::simple}};
    bool took_ll128 = false;
    for (int64_t bytes : {int64_t{8}, int64_t{1} << 16, int64_t{1} << 20, int64_t{1} << 30}) {
        const auto t = tune(s, CollOp::allreduce, Bytes(bytes), "auto", "auto", {}, listed);
        REQUIRE(t);
        CHECK(t->proto != ProtoKind::ll);
        took_ll128 = took_ll128 || t->proto == ProtoKind::ll128;
    }
    CHECK(took_ll128);
    // NCCL_PROTO=^LL: the 8-GPU node's small AllReduce leaves LL for another protocol.
    CHECK(tune(h100_node(), CollOp::allreduce, Bytes(1024), "auto", "auto")->proto == ProtoKind::ll);
    const auto no_ll = tune(h100_node(), CollOp::allreduce, Bytes(1024), "auto", "auto", {}, {{ProtoKind::ll}, {}});
    REQUIRE(no_ll);
    CHECK(no_ll->proto != ProtoKind::ll);
}

TEST_CASE("on two nodes NCCL's trees plan with up to twice the network speed inside the node, so tree wins large AllReduce") {
    // 2 x p4de: A100 (240 GB/s of NVLink at NCCL's rates), 4 x 100 Gb/s EFA.
    CommShape s;
    s.ranks = 16;
    s.nodes = 2;
    s.ppn = 8;
    s.arch = GpuArch::ampere;
    s.intra_bw = 240;
    s.nic_bw = 12.5;
    s.nics_per_node = 4;
    const NcclChannels ch = nccl_channels(s);
    CHECK(ch.count == 4);
    CHECK(ch.bw == 12);       // speedArrayInter's step under 12.5
    CHECK(ch.tree_bw == 24);  // 15, 18, 20, 24: stops at twice 12
    const auto big = tune(s, CollOp::allreduce, Bytes(int64_t{1} << 30), "auto", "auto");
    REQUIRE(big);
    INFO(big->why);
    CHECK(big->algo == "tree");
    // On more nodes NCCL plans trees with the network speed: ring again.
    s.ranks = 32;
    s.nodes = 4;
    const auto four = tune(s, CollOp::allreduce, Bytes(int64_t{1} << 30), "auto", "auto");
    REQUIRE(four);
    CHECK(four->algo == "ring");
}

TEST_CASE("NCCL does not duplicate Hopper's channels below 50 GB/s when it has more than four") {
    // DGX H100 pair: 8 x 400 Gb/s NICs give 48 GB/s channels, kept as 8.
    CommShape s = h100_node();
    s.ranks = 16;
    s.nodes = 2;
    s.nic_bw = 50;
    s.nics_per_node = 8;
    NcclChannels ch = nccl_channels(s);
    CHECK(ch.count == 8);
    CHECK(ch.bw == 48);
    // Four such NICs: duplicated to 8 at 24 GB/s (ncclTopoDupChannels).
    s.nics_per_node = 4;
    ch = nccl_channels(s);
    CHECK(ch.count == 8);
    CHECK(ch.bw == 24);
}
