// Chakra traces in all their forms: the ET protobuf (.et), Chakra's JSON and
// the PyTorch execution trace; our own samples of each layout, the real
// files in ../shared/real-inputs when they are there (skipped if not), and
// every refusal with its file, place and format.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "sim/hw/topology_loader.hpp"
#include "sim/replay/import/any_trace.hpp"
#include "sim/replay/import/chakra_et.hpp"
#include "sim/replay/replayer.hpp"
#include "tests/support/input_error.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/topology_inputs.hpp"

using namespace collsim;
namespace fs = std::filesystem;

namespace {
std::string chakra_real(const std::string& relative) {
    return test::source_path("../shared/real-inputs/chakra/" + relative);
}

// A fresh scratch folder per test and process.
std::string chakra_scratch(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("collsim-chakra-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir.string();
}

std::string chakra_unpack(const std::string& archive, const std::string& name) {
    const std::string dir = chakra_scratch(name);
    REQUIRE(std::system(("tar -xzf '" + archive + "' -C '" + dir + "'").c_str()) == 0);
    return dir;
}

const Topology& chakra_two_nodes() {
    static const Topology t = load_topology(test::source_path("topologies/cluster-h100-2n.yaml"));
    return t;
}

const bool kChakraProtobuf = chakra_et_supported();

std::map<CollOp, int> chakra_ops(const ReplayResult& r) {
    std::map<CollOp, int> n;
    for (const CollectiveRun& c : r.collectives) ++n[c.kind];
    return n;
}
}  // namespace

TEST_CASE("our Chakra ET sample replays 4 ranks: an AllReduce and an eager ring of sends", "[chakra]") {
    const std::string dir = test::source_path("workloads/samples/chakra-et");
    if (!kChakraProtobuf) {
        CHECK_THAT(test::input_error_of([&] { load_any_trace(dir); }),
                   Catch::Contains("ring.0.et:1:1: file: expected a trace this collsim can read, found this is a "
                                   "Chakra ET protobuf; this collsim was built without protobuf"));
        return;
    }
    // The folder and the file of rank 0 are the same job.
    for (const std::string& path : {dir, dir + "/ring.0.et"}) {
        const Trace t = load_any_trace(path);
        REQUIRE(t.ranks == 4);
        const ReplayResult r = replay(test::dgx_h100(), t, ReplayOptions{});
        REQUIRE(r.collectives.size() == 1);
        CHECK(r.collectives[0].kind == CollOp::allreduce);
        CHECK(r.collectives[0].bytes == Bytes(4 << 20));
        CHECK(r.collectives[0].ranks == 4);
        REQUIRE(r.p2p.size() == 4);
        for (const P2PRun& p : r.p2p) {
            CHECK(p.to == (p.from + 1) % 4);
            CHECK(p.bytes == Bytes(1 << 20));
        }
        // 100us of compute, the AllReduce, the ring step, 50us of compute.
        CHECK(r.makespan > Time::from_ps(150'000'000));
    }
}

TEST_CASE("the shipped Chakra JSON sample runs its send eagerly on its own stream", "[chakra]") {
    const Trace t = load_any_trace(test::source_path("workloads/samples/chakra/chakra.0.json"));
    CHECK(t.streams == std::vector<std::string>{"cpu", "compute", "comm", "send"});
    bool noted = false;
    for (const std::string& n : t.notes) noted = noted || n.find("sends are eager") != std::string::npos;
    CHECK(noted);
}

TEST_CASE("our PyTorch execution-trace samples replay in both layouts", "[chakra]") {
    SECTION("schema 1.0.3-chakra.0.0.4: process groups, durations, c10d and nccl nodes") {
        const Trace t = load_any_trace(test::source_path("workloads/samples/pytorch-et"));
        REQUIRE(t.ranks == 2);
        REQUIRE(t.find_communicator("pg 0"));
        const ReplayResult r = replay(test::dgx_h100(), t, ReplayOptions{});
        REQUIRE(r.collectives.size() == 2);
        CHECK(r.collectives[0].kind == CollOp::allreduce);
        CHECK(r.collectives[0].bytes == Bytes(2 << 20));  // 1 Mi bfloat16
        CHECK(r.collectives[1].kind == CollOp::allgather);
        CHECK(r.collectives[1].bytes == Bytes(2 << 20));  // the output: 512 Ki floats
        // aten::mm 250us, then aten::add_ 40us on the thread; no note of missing durations.
        CHECK(r.makespan >= Time::from_ps(290'000'000));
        for (const std::string& n : t.notes) CHECK(n.find("no duration") == std::string::npos);
    }
    SECTION("schema 1.0.1: an all-to-all split as its input_split_sizes say, no durations (noted)") {
        const Trace t = load_any_trace(test::source_path("workloads/samples/pytorch-et-1.0.1/dlrm_eg_0.json"));
        REQUIRE(t.ranks == 2);
        const TraceOp* a2a = nullptr;
        for (const TraceOp& op : t.program(0).ops)
            if (op.kind == OpKind::collective && op.collective.op == CollOp::alltoall) a2a = &op;
        REQUIRE(a2a);
        CHECK(a2a->collective.bytes == Bytes(32768));
        CHECK(a2a->collective.split == std::vector<Bytes>{Bytes(24576), Bytes(8192)});
        bool noted = false;
        const std::string note = "dlrm_eg_0.json: in each of its 2 rank files: CPU ops with no duration (an execution "
                                 "trace not linked with its Kineto trace): 1;";
        for (const std::string& n : t.notes) noted = noted || n.find(note) != std::string::npos;
        CHECK(noted);
        CHECK(chakra_ops(replay(test::dgx_h100(), t, ReplayOptions{})) ==
              std::map<CollOp, int>{{CollOp::allreduce, 1}, {CollOp::alltoall, 1}});
    }
}

TEST_CASE("the real ASTRA-sim Chakra ET microbenchmarks replay with their collectives and sizes", "[chakra]") {
    if (!fs::exists(chakra_real("astra-sim-all_reduce-8npus_1MB"))) {
        WARN("../shared/real-inputs is not here: skipped");
        return;
    }
    if (!kChakraProtobuf) return;
    struct Case {
        std::string dir;
        CollOp op;
        int ranks;
    };
    for (const Case& c : {Case{"astra-sim-all_reduce-8npus_1MB", CollOp::allreduce, 8},
                          Case{"astra-sim-all_gather-4npus_1MB", CollOp::allgather, 4},
                          Case{"astra-sim-all_to_all-16npus_1MB", CollOp::alltoall, 16}}) {
        INFO(c.dir);
        const Trace t = load_any_trace(chakra_real(c.dir));
        REQUIRE(t.ranks == c.ranks);
        const ReplayResult r = replay(chakra_two_nodes(), t, ReplayOptions{});
        REQUIRE(r.collectives.size() == 1);
        CHECK(r.collectives[0].kind == c.op);
        CHECK(r.collectives[0].bytes == Bytes(1048576));  // comm_size in every file
        CHECK(r.collectives[0].ranks == c.ranks);
        CHECK(r.makespan > Time{});
    }
    // The ring AllReduce ASTRA-sim generated from an MSCCL XML: per rank 14
    // eager sends of 128 KiB to the next rank and 14 receives.
    const Trace ring = load_any_trace(chakra_real("astra-sim-custom_ring_allreduce_8npus_1MB/custom_allreduce.0.et"));
    REQUIRE(ring.ranks == 8);
    const ReplayResult r = replay(test::dgx_h100(), ring, ReplayOptions{});
    CHECK_FALSE(r.hang);
    REQUIRE(r.p2p.size() == 8 * 14);
    for (const P2PRun& p : r.p2p) {
        CHECK(p.to == (p.from + 1) % 8);
        CHECK(p.bytes == Bytes(131072));
    }
}

TEST_CASE("the real Chakra ET converted from a PyTorch trace keeps its 7 GPU collectives and their sizes",
          "[chakra]") {
    const std::string archive = chakra_real("chakra-feeder_tests_trace.tar.gz");
    if (!fs::exists(archive)) {
        WARN("../shared/real-inputs is not here: skipped");
        return;
    }
    if (!kChakraProtobuf) return;
    const std::string dir = chakra_unpack(archive, "feeder");
    const Trace t = load_any_trace(dir + "/tests/data/chakra.0.et");
    CHECK(t.program(0).ops.size() == 3664);
    std::multiset<int64_t> sizes;
    for (const TraceOp& op : t.program(0).ops)
        if (op.kind == OpKind::collective) sizes.insert(op.collective.bytes.count());
    CHECK(sizes == std::multiset<int64_t>{424, 212480, 8196000, 9724160, 26255360, 26550272, 31502336});
    const ReplayResult r = replay(test::dgx_h100(), t, ReplayOptions{});
    CHECK(chakra_ops(r) == std::map<CollOp, int>{{CollOp::allreduce, 5}, {CollOp::broadcast, 2}});
    fs::remove_all(dir);
}

TEST_CASE("the real PyTorch execution traces of an 8-rank DLRM replay with their collectives and sizes", "[chakra]") {
    const std::string archive = chakra_real("param-dlrm_pytorch_et.tar.gz");
    if (!fs::exists(archive)) {
        WARN("../shared/real-inputs is not here: skipped");
        return;
    }
    const std::string dir = chakra_unpack(archive, "dlrm");
    const Trace t = load_any_trace(dir + "/dlrm_pytorch_et");
    REQUIRE(t.ranks == 8);
    std::multiset<int64_t> sizes;
    for (const TraceOp& op : t.program(0).ops)
        if (op.kind == OpKind::collective) sizes.insert(op.collective.bytes.count());
    // 5 c10d::alltoall_base_ (send buffers) and 3 c10d::allreduce_, as the Kineto trace of the same run has.
    CHECK(sizes == std::multiset<int64_t>{192, 448, 1536, 13568, 24576, 24576, 907840, 1576964});
    const ReplayResult r = replay(test::dgx_h100(), t, ReplayOptions{});
    CHECK(chakra_ops(r) == std::map<CollOp, int>{{CollOp::allreduce, 3}, {CollOp::alltoall, 5}});
    fs::remove_all(dir);
}
