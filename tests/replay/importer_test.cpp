// Importers: NCCL kernel names, the shipped Chakra sample, and the real Chakra
// traces in ../shared/real-inputs when they are there (skipped if not). The
// Kineto importer's own tests are kineto_test.cpp and kineto_real_test.cpp.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sim/hw/topology_loader.hpp"
#include "tests/support/topology_inputs.hpp"
#include "sim/replay/import/any_trace.hpp"
#include "sim/replay/import/nccl_kernel.hpp"
#include "sim/replay/replayer.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;
namespace fs = std::filesystem;

namespace {
std::string real_input(const std::string& relative) {
    return test::source_path("../shared/real-inputs/" + relative);
}

// Unpacks a .tar.gz of real traces into a fresh directory (tar is a Debian base tool).
std::string unpack(const std::string& archive) {
    const std::string dir = "/tmp/collsim-import-" + std::to_string(::getpid()) + "-" + fs::path(archive).stem().string();
    fs::create_directories(dir);
    const std::string cmd = "tar -xzf '" + archive + "' -C '" + dir + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
    return dir;
}
}  // namespace

TEST_CASE("NCCL kernels are recognised in both naming schemes") {
    auto old = parse_nccl_kernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)");
    REQUIRE(old);
    CHECK(old->op == CollOp::allreduce);
    CHECK(old->dtype == "float");
    auto fresh = parse_nccl_kernel("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)");
    REQUIRE(fresh);
    CHECK(fresh->op == CollOp::reducescatter);
    CHECK(fresh->dtype == "bfloat16");
    CHECK(parse_nccl_kernel("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*)")->dtype == "int8");
    CHECK(parse_nccl_kernel("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(x)")->op == CollOp::sendrecv);
    CHECK(parse_nccl_kernel("ncclDevKernel_Broadcast_RING_LL(x)")->dtype.empty());
    CHECK_FALSE(parse_nccl_kernel("void cutlass::Kernel<ncclKernel_AllReduce>(Params)"));
    CHECK_FALSE(parse_nccl_kernel("ncclDevKernel_Generic(x)"));
}

TEST_CASE("the shipped Chakra sample imports one program per rank and replays") {
    const Trace t = load_any_trace(test::source_path("workloads/samples/chakra/chakra.0.json"));
    REQUIRE(t.ranks == 4);
    CHECK(&t.program(0) != &t.program(1));
    CHECK(t.streams == std::vector<std::string>{"cpu", "compute", "comm", "send"});  // sends are eager (chakra_graph.hpp)
    int collectives = 0, measured = 0, p2p = 0;
    for (const TraceOp& op : t.program(0).ops) {
        collectives += op.kind == OpKind::collective;
        measured += op.kind == OpKind::collective && op.collective.duration.has_value();
        p2p += op.kind == OpKind::send;
        if (op.kind == OpKind::compute && op.name.starts_with("aten::")) CHECK(op.compute.host);
    }
    CHECK(collectives == 2);
    CHECK(measured == 1);  // the AllGather has no comm_size
    CHECK(p2p == 1);
    const ReplayResult r = replay(test::dgx_h100(), t, ReplayOptions{});
    CHECK(r.collectives.size() == 2);
    CHECK(r.p2p.size() == 2);
    CHECK(r.makespan > Time{});
}

TEST_CASE("a trace saved with a byte order mark imports as without one") {
    const fs::path dir = fs::temp_directory_path() / ("collsim-bom-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (const auto& e : fs::directory_iterator(test::source_path("workloads/samples/kineto"))) {
        std::ifstream in(e.path());
        std::ofstream(dir / e.path().filename()) << "\xEF\xBB\xBF" << in.rdbuf();
    }
    const Trace t = load_any_trace(dir.string());
    CHECK(t.ranks == 2);
    CHECK(t.program(1).ops.size() == load_any_trace(test::source_path("workloads/samples/kineto")).program(1).ops.size());
    fs::remove_all(dir);
}

TEST_CASE("the real Chakra JSON traces import and replay") {
    const std::string archive = real_input("chakra/chakra-json_trace.tar.gz");
    if (!fs::exists(archive)) {
        WARN("../shared/real-inputs is not here: skipped");
        return;
    }
    const std::string dir = unpack(archive);
    const Trace small = load_any_trace(dir + "/jsonData/small_chakra.0.json");
    CHECK(small.ranks == 8);  // "ngpus": 8, one rank's file
    const Trace big = load_any_trace(dir + "/jsonData/chakra.0.json");
    CHECK(big.program(0).ops.size() == 3664);
    const ReplayResult r = replay(test::dgx_h100(), big, ReplayOptions{});
    CHECK(r.collectives.size() == 7);
    fs::remove_all(dir);
}

TEST_CASE("every import error names the file and the field") {
    const std::string dir = "/tmp/collsim-import-bad-" + std::to_string(::getpid());
    fs::create_directories(dir);
    const std::string file = dir + "/chakra.0.json";
    auto error_of = [&](const std::string& content) {
        std::ofstream(file) << content;
        try {
            load_any_trace(file);
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string node = R"("Name": "k", "is_cpu_op": false, "runtime": 5)";
    // The place is the value's or, where the field is missing, its object's.
    struct Case {
        std::string content, place, expect;
    };
    for (const Case& c : {
             Case{R"({"workload_graph": 3})", ":1:20", "workload_graph: expected a list of nodes, found 3"},
             Case{R"({"workload_graph": [7]})", ":1:21", "workload_graph[0]: expected a node, found 7"},
             Case{R"({"workload_graph": [{"Id": -1, "NodeType": 4}]})",
                  ":1:28", "workload_graph[0].Id: expected an integer that is not negative, found -1"},
             Case{R"({"workload_graph": [{"Id": 1, "NodeType": 4}, {"Id": 1, "NodeType": 4}]})",
                  ":1:54", "workload_graph[1].Id: expected an Id no other node has"},
             Case{R"({"workload_graph": [{"Id": 1, "NodeType": 4, "data_deps": 2}]})",
                  ":1:59", "workload_graph[0].data_deps: expected a list of node Ids, found 2"},
             Case{R"({"workload_graph": [{"Id": 1, "NodeType": 4, "data_deps": [2]}, {"Id": 2, "NodeType": 4, "data_deps": [1]}]})",
                  ":1:20", "workload_graph: expected data_deps without cycles, found a cycle among 2 nodes"},
             Case{R"({"workload_graph": [{"Id": 1}]})", ":1:21", "workload_graph[0].NodeType: expected an integer that is not negative"},
             Case{R"({"workload_graph": [{"Id": 1, "NodeType": 7, )" + node + "}]}",
                  ":1:21", "workload_graph[0].comm_type: expected a comm_type, or a Name that is an NCCL collective kernel"},
             Case{R"({"workload_graph": [{"Id": 1, "NodeType": 7, "comm_type": 3, )" + node + "}]}",
                  ":1:59", "workload_graph[0].comm_type: expected a collective collsim runs"},
             Case{R"({"workload_graph": [{"Id": 1, "NodeType": 5, "comm_size": 8, )" + node + "}]}",
                  ":1:21", "workload_graph[0].comm_dst: expected an integer that is not negative, found nothing"},
             Case{R"({"traceEvents": [{"ph": "X", "dur": 1e400}]})", ":1:37", "json: expected numbers within a double's range, found '1e400'"},
             Case{R"({"traceEvents": {}})", ":1:17", "traceEvents: expected a list of events"},
             Case{R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "dur": 2}]})",
                  ":1:18", "traceEvents[0].ts: expected a time in microseconds that is not negative, found nothing"},
             Case{R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1.0, "dur": -2}]})",
                  ":1:78", "traceEvents[0].dur: expected a time in microseconds that is not negative, found -2"},
             Case{R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1.0, "dur": 1e300}]})",
                  ":1:78", "traceEvents[0].dur: expected a time in microseconds within 106 days, found 1e+300"},
             Case{R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1.0, "dur": 1},
                                      {"ph": "X", "cat": "kernel", "name": "k", "ts": 1e13, "dur": 1}]})",
                  ":2:87", "traceEvents[1].ts: expected a start within 106 days of the first kernel's, found 10000000000000.0"},
         }) {
        INFO(c.content);
        CHECK_THAT(error_of(c.content), Catch::Contains(file + c.place + ": " + c.expect));
    }
    // A file named .json is read as JSON: its syntax errors are JSON's, with their place.
    CHECK_THAT(error_of("{\"traceEvents\": [\n  {\"ph\": }"),
               Catch::Contains(file + ":2:10: json: expected a Chakra or Kineto JSON trace, found malformed JSON"));
    // Two files of one rank; a directory of something else; a broken gzip file.
    fs::remove(file);
    const std::string kineto = R"({"distributedInfo": {"rank": 0, "world_size": 2}, "traceEvents": [)"
                               R"({"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2}]})";
    std::ofstream(dir + "/a.json") << kineto;
    std::ofstream(dir + "/b.json") << kineto;
    CHECK_THROWS_WITH(load_any_trace(dir), Catch::Contains(dir + ": rank: expected one trace per rank 0 to 1, found "
                                                                 "rank 0 where rank 1 belongs"));
    std::ofstream(dir + "/b.json") << "ranks: 2\n";
    CHECK_THROWS_WITH(load_any_trace(dir), Catch::Contains(dir + "/b.json:1:1: file: expected a Chakra or Kineto JSON "
                                                                 "trace like the other files of " + dir));
    fs::remove(dir + "/a.json");
    fs::remove(dir + "/b.json");
    CHECK_THROWS_WITH(load_any_trace(dir),
                      Catch::Contains(dir + ": directory: expected one .json or .json.gz trace per rank, found none"));
    std::ofstream(dir + "/x.json.gz") << std::string("\x1f\x8b\x08\x00garbage", 12);
    CHECK_THROWS_WITH(load_any_trace(dir + "/x.json.gz"),
                      Catch::Contains(dir + "/x.json.gz: file: expected a readable file (plain or gzip)"));
    fs::remove_all(dir);
}
