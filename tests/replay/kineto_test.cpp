// The Kineto importer on our own samples (workloads/samples/kineto: current
// PyTorch; kineto-2.0: PyTorch 2.0's layout) and on bad inputs: exact times,
// CPU-side sizes, the per-call list of unsized calls, partial rank sets, and an
// exit 2 with file and position for every refusal.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "sim/core/json_input.hpp"
#include "sim/replay/import/any_trace.hpp"
#include "sim/replay/import/kineto_comm.hpp"
#include "sim/replay/import/kineto_time.hpp"
#include "sim/replay/replayer.hpp"
#include "tests/replay/kineto_mix.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/topology_inputs.hpp"

using namespace collsim;
namespace fs = std::filesystem;

namespace {
const std::string kKinetoSample20 = "workloads/samples/kineto-2.0";

// A scratch directory for one test, removed at the end.
struct KinetoScratch {
    fs::path dir;
    explicit KinetoScratch(const std::string& tag)
        : dir(fs::temp_directory_path() / ("collsim-kineto-" + tag + "-" + std::to_string(::getpid()))) {
        fs::create_directories(dir);
    }
    ~KinetoScratch() { fs::remove_all(dir); }
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    }
};

std::string kineto_error(const std::string& file) {
    try {
        load_any_trace(file);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "no error";
}

// One kernel event, for hand-written traces.
const std::string kKinetoKernel =
    R"({"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2, "args": {"stream": 7}})";
}  // namespace

TEST_CASE("Kineto timestamps are read from the number's text, to the nanosecond", "[kineto]") {
    CHECK(kineto_ns("1694128201429795.422") == 1694128201429795422);  // a double holds this to 0.25 us
    CHECK(kineto_ns("4458677009853.4226") == 4458677009853423);        // rounded to the nearest ns
    CHECK(kineto_ns("12") == 12000);
    CHECK(kineto_ns("1.25e1") == 12500);
    CHECK(kineto_ns("2E-3") == 2);
    CHECK(kineto_ns("0.0004") == 0);
    CHECK_FALSE(kineto_ns("-1"));
    CHECK_FALSE(kineto_ns("1e400"));
    CHECK_FALSE(kineto_ns("9300000000000000000"));  // past 2^63 ns
    CHECK_FALSE(kineto_ns("1.2.3"));
}

TEST_CASE("a current Kineto trace is sized from the kernel args and, by External id, from record_param_comms",
          "[kineto]") {
    const Trace t = load_any_trace(test::source_path("workloads/samples/kineto"));
    REQUIRE(t.ranks == 2);
    REQUIRE(t.find_communicator("pg 0"));
    CHECK(t.communicators[*t.find_communicator("pg 0")].groups == std::vector<std::vector<int>>{{0, 1}});
    for (int rank : {0, 1}) {
        test::KinetoMix m = test::kineto_mix(t.program(rank));
        CHECK(m.sized == std::map<CollOp, int>{{CollOp::allreduce, 3}, {CollOp::broadcast, 1}});
        CHECK(m.bytes[CollOp::allreduce] == 3 * (25 << 20));  // 13107200 BFloat16
        CHECK(m.bytes[CollOp::broadcast] == 262144 * 4);      // the CPU op's 262144 Float
        CHECK(m.unsized.empty());
    }
    CHECK(t.unsized.empty());
    // Kernels keep their exact measured times: 410.25 us, 38.5 us (rank 0's first two).
    CHECK(t.program(0).ops[0].compute.duration == Time::from_ps(410'250'000));
    CHECK(t.program(0).ops[1].compute.duration == Time::from_ps(38'500'000));
    const ReplayResult r = replay(test::dgx_h100(), t, ReplayOptions{});
    CHECK(r.collectives.size() == 4);
    for (const auto& c : r.collectives) CHECK(c.algo != "measured");
}

TEST_CASE("a PyTorch 2.0 Kineto trace is sized from its CPU ops through the launch's correlation", "[kineto]") {
    const Trace t = load_any_trace(test::source_path(kKinetoSample20));
    REQUIRE(t.ranks == 4);
    for (int rank = 0; rank < 4; ++rank) {
        INFO("rank " << rank);
        test::KinetoMix m = test::kineto_mix(t.program(rank));
        // SendRecv kernels under c10d::alltoall_base_ are AllToAll.
        CHECK(m.sized ==
              std::map<CollOp, int>{{CollOp::alltoall, 1}, {CollOp::allreduce, 1}, {CollOp::allgather, 1}});
        CHECK(m.bytes[CollOp::alltoall] == 6144 * 4);           // nccl:all_to_all's input, float
        CHECK(m.bytes[CollOp::allreduce] == 394241 * 4);        // nccl:all_reduce's, under a TensorList c10d op
        CHECK(m.bytes[CollOp::allgather] == 4 * 2048 * 64 * 4); // the whole output: 4 ranks' inputs
        // The AllReduce launched before the profiler started has no size.
        CHECK(m.unsized == std::map<CollOp, int>{{CollOp::allreduce, 1}});
    }
    // Listed per call (once per file), with its place and the reason.
    REQUIRE(t.unsized.size() == 4);
    const std::string file0 = test::source_path(kKinetoSample20 + "/worker0_step_3.pt.trace.json");
    CHECK(t.unsized[0].where.file == file0);
    CHECK(t.unsized[0].where.line == 20);
    CHECK(t.unsized[0].where.column == 3);
    CHECK(t.unsized[0].measured == Time::from_ps(41'000'000));
    CHECK_THAT(t.unsized[0].reason, Catch::Contains("its launch is not in the trace"));
    bool uneven = false;
    for (const std::string& n : t.notes) uneven |= n.find("have uneven splits that the trace does not record in full") != std::string::npos;
    CHECK(uneven);  // ranks 1-3 receive 5120, 6144 and 7168 floats for the 6144 they send
    const ReplayResult r = replay(test::dgx_h100(), t, ReplayOptions{});
    CHECK(r.collectives.size() == 4);
}

TEST_CASE("the replay lists every call without a size, in the table and the JSON", "[kineto]") {
    const std::string cmd = "replay --topology topologies/dgx-h100.yaml --trace " + kKinetoSample20;
    const auto table = test::run_cli(cmd);
    REQUIRE(table.exit_code == 0);
    CHECK_THAT(table.out, Catch::Contains("calls without a size in the trace: 4, each kept at its measured time"));
    CHECK_THAT(table.out, Catch::Contains("worker0_step_3.pt.trace.json:20:3: ncclKernel_AllReduce_RING_LL_Sum_float#1 "
                                          "(41.00 us): its launch is not in the trace"));
    const auto json = test::run_cli(cmd + " --format json");
    REQUIRE(json.exit_code == 0);
    const auto j = nlohmann::json::parse(json.out);
    REQUIRE(j["unsized_calls"].size() == 4);
    CHECK(j["unsized_calls"][3]["line"] == 20);
    CHECK(j["unsized_calls"][3]["measured_us"] == 41.0);
    CHECK(test::run_cli(cmd + " --format json").out == json.out);  // byte for byte, run to run
}

TEST_CASE("a partial set of Kineto rank files is refused unless --ranks-present", "[kineto]") {
    const KinetoScratch s("partial");
    for (int rank : {0, 2})
        fs::copy(test::source_path(kKinetoSample20 + "/worker" + std::to_string(rank) + "_step_3.pt.trace.json"), s.dir);
    const auto refused = test::run_cli("replay --topology topologies/dgx-h100.yaml --trace " + s.dir.string());
    CHECK(refused.exit_code == 2);
    CHECK_THAT(refused.err, Catch::Contains(s.dir.string() + ": world_size: expected a trace for each of the job's 4 "
                                            "ranks (its world_size), or --ranks-present to replicate the ranks given, "
                                            "found 2 files, of ranks 0, 2"));
    const Trace t = load_any_trace(s.dir.string(), TraceImportOptions{true});
    REQUIRE(t.ranks == 4);
    CHECK(&t.program(1) == &t.program(0));
    CHECK(&t.program(3) == &t.program(2));
    CHECK(&t.program(2) != &t.program(0));
    const auto replicated =
        test::run_cli("replay --topology topologies/dgx-h100.yaml --ranks-present --trace " + s.dir.string());
    CHECK(replicated.exit_code == 0);
    CHECK_THAT(replicated.err, Catch::Contains("2 of the job's 4 ranks' traces (ranks 0, 2); as --ranks-present asks"));
}

TEST_CASE("a Kineto value nested a million deep is exit 2 naming the depth bound", "[kineto]") {
    const KinetoScratch s("deep");
    const std::size_t depth = 1'000'000;
    std::string deep = "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": 2, "
                       "\"args\": {\"device\": ";
    deep += std::string(depth, '[') + std::string(depth, ']') + "}}]}";
    const std::string expect = fmt::format(":1:{}: json: expected lists and objects nested at most {} deep "
                                           "(kMaxJsonDepth), found nesting deeper than {}",
                                           97 + kMaxJsonDepth - 3, kMaxJsonDepth, kMaxJsonDepth);
    for (const char* name : {"deep.json", "deep.trace"}) {
        INFO(name);
        const std::string file = s.write(name, deep);
        const auto r = test::run_cli("replay --topology topologies/dgx-h100.yaml --trace " + file);
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::Contains(file + expect));
    }
    // 256 levels (the top-level object, the list, the event, args: 4 of them) still read.
    const int inner = kMaxJsonDepth - 4;
    const std::string ok = "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, "
                           "\"dur\": 2, \"args\": {\"device\": " + std::string(inner, '[') + std::string(inner, ']') + "}}]}";
    CHECK(load_any_trace(s.write("ok.json", ok)).program(0).ops.size() == 1);
}

TEST_CASE("a Kineto field of the wrong JSON type is exit 2 with its place, never a type error", "[kineto]") {
    const KinetoScratch s("types");
    const std::string file = s.write("t.json", "");
    struct Case {
        std::string content, expect;
    };
    const std::string launch = R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "tid": 1, "ts": 1, )"
                               R"("dur": 1, "args": {"correlation": 9}})";
    const std::string nccl = R"k({"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)", )k"
                             R"("ts": 3, "dur": 2, "args": {"correlation": 9, )";
    for (const Case& c : {
             Case{R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": 5, "ts": 1, "dur": 2}]})",
                  ":1:55: traceEvents[0].name: expected a string, found 5"},
             Case{R"({"traceEvents": [{"ph": 3}]})", ":1:25: traceEvents[0].ph: expected a string, found 3"},
             Case{R"({"traceEvents": [{"ph": "X", "cat": ["kernel"]}]})",
                  ":1:37: traceEvents[0].cat: expected a string, found [\"kernel\"]"},
             Case{R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2, "args": []}]})",
                  ":1:87: traceEvents[0].args: expected an object of fields, found []"},
             Case{R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": "1", "dur": 2}]})",
                  ":1:66: traceEvents[0].ts: expected a time in microseconds that is not negative, found \"1\""},
             Case{R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2, )"
                  R"("args": {"stream": 1.5}}]})",
                  ":1:98: traceEvents[0].args.stream: expected an integer or a string, found 1.5"},
             Case{R"({"traceEvents": [7]})", ":1:18: traceEvents[0]: expected an event (an object of fields), found 7"},
             Case{R"({"traceEvents": [)" + kKinetoKernel + R"(], "distributedInfo": {"rank": "0", "world_size": 2}})",
                  ":1:132: distributedInfo.rank: expected an integer, found \"0\""},
             Case{R"({"traceEvents": [)" + kKinetoKernel + R"(], "distributedInfo": {"rank": 2, "world_size": 2}})",
                  ":1:132: distributedInfo.rank: expected a rank of the job's 2, found 2"},
             Case{R"({"traceEvents": [)" + launch + ", " + nccl + R"("In msg nelems": "8", "dtype": "Float"}}]})",
                  ":1:285: traceEvents[1].args.In msg nelems: expected an integer, found \"8\""},
             Case{R"({"traceEvents": [)" + launch + ", " + nccl + R"("In msg nelems": 8, "dtype": "Complex32"}}]})",
                  ":1:297: traceEvents[1].args.dtype: expected a PyTorch dtype (Float, BFloat16, Half, Long, ...), "
                  "found \"Complex32\""},
             Case{R"({"traceEvents": [)" + launch + ", " + nccl + R"("Process Group Name": "0", )"
                  R"("Process Group Ranks": 7}}]})",
                  ":1:318: traceEvents[1].args.Process Group Ranks: expected a list of integers, \"[0, 1]\", found 7"},
             Case{R"({"traceEvents": [)" + launch + ", " + nccl + R"("Collective name": 1}}]})",
                  ":1:287: traceEvents[1].args.Collective name: expected a string, found 1"},
             Case{R"({"traceEvents": [)" + launch + R"(, {"ph": "X", "cat": "cpu_op", "name": "nccl:all_reduce", )"
                  R"("tid": 1, "ts": 0, "dur": 5, "args": {"Input Dims": [["x"]], "Input type": ["float"]}}, )" + nccl +
                  "\"stream\": 2}}]}",
                  ":1:249: traceEvents[1].args.Input Dims[0][0]: expected a dimension, an integer that is not "
                  "negative, found \"x\""},
         }) {
        INFO(c.content);
        std::ofstream(file) << c.content;
        CHECK_THAT(kineto_error(file), Catch::Contains(file + c.expect));
    }
    // And through the CLI: exit 2, not 3.
    std::ofstream(file) << R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": 5, "ts": 1, "dur": 2}]})";
    const auto r = test::run_cli("replay --topology topologies/dgx-h100.yaml --trace " + file);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(file + ":1:55: traceEvents[0].name: expected a string, found 5"));
}

TEST_CASE("a Kineto trace without GPU activity is exit 2", "[kineto]") {
    const KinetoScratch s("nogpu");
    const std::string file =
        s.write("cpu.json", R"({"distributedInfo": {"rank": 0, "world_size": 1}, "traceEvents": [)"
                            R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1, "dur": 2}]})");
    const auto r = test::run_cli("replay --topology topologies/dgx-h100.yaml --trace " + file);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(file + ":1:66: traceEvents: expected GPU activity to replay: kernels, memcpys or "
                                             "memsets (cat kernel, gpu_memcpy, gpu_memset), found none among its 1 events"));
}

TEST_CASE("Kineto process groups: whole lists, pg_config, rank strides, and lists the profiler cut short", "[kineto]") {
    const KinetoFields f("t.json");
    KinetoJob job;
    job.rank = 4;
    job.world = 64;
    const NcclKernel kernel{CollOp::allreduce, "float"};
    auto group_of = [&](const std::string& args) {
        const nlohmann::json a = nlohmann::json::parse(args);
        const KinetoCall c = kineto_call(kernel, &a, "traceEvents[0]", {}, true, job, f);
        CHECK(c.bytes == Bytes(32));
        CHECK(c.comm == "pg 3");
        return std::pair{c.group, c.group_unknown};
    };
    const std::string head = R"({"In msg nelems": 8, "dtype": "Float", "Process Group Name": "3", )";
    std::vector<int> evens;
    for (int r = 0; r < 64; r += 2) evens.push_back(r);
    // PyTorch writes at most 30 ranks, then "...": the stride of the ones written gives the rest.
    CHECK(group_of(head + R"("Group size": 32, "Process Group Ranks": "[0, 2, 4, 6, 8, 10, ...]"})") ==
          std::pair{evens, false});
    CHECK(group_of(head + R"("Group size": 32, "Global rank start": 0, "Global rank stride": 2, )"
                          R"("Process Group Ranks": "[0, 2, 4, 8, ...]"})") == std::pair{evens, false});
    CHECK(group_of(head + R"("Group size": 3, "Process Group Ranks": "[1, 4, 9]"})") ==
          std::pair{std::vector<int>{1, 4, 9}, false});
    // Cut short, no even stride, no pg_config: the whole job, said in a note.
    CHECK(group_of(head + R"("Group size": 32, "Global rank stride": -1, "Process Group Ranks": "[0, 1, 4, ...]"})") ==
          std::pair{std::vector<int>{}, true});
    job.groups["3"] = {4, 5};
    CHECK(group_of(head + R"("Process Group Ranks": "[4, ...]"})") == std::pair{std::vector<int>{4, 5}, false});
    CHECK_THROWS_WITH(group_of(head + R"("Process Group Ranks": "[0, 1]"})"),
                      Catch::Contains("traceEvents[0].args.Process Group Ranks: expected a group that holds this "
                                      "trace's rank 4, found \"[0, 1]\""));
    CHECK_THROWS_WITH(group_of(head + R"("Process Group Ranks": "[4, 64]"})"),
                      Catch::Contains("expected ranks of the job's 64"));
}

TEST_CASE("Kineto all-to-all splits count rows of the input; cut or ragged ones run even, said", "[kineto]") {
    const KinetoFields f("t.json");
    KinetoJob job;
    job.world = 2;
    const NcclKernel kernel{CollOp::sendrecv, "int8"};
    auto call_of = [&](const std::string& args) {
        const nlohmann::json a = nlohmann::json::parse(args);
        return kineto_call(kernel, &a, "traceEvents[0]", {}, true, job, f);
    };
    const std::string head = R"({"Collective name": "all_to_allv", "In msg nelems": 16, "dtype": "Float", )";
    const KinetoCall uneven = call_of(head + R"("In split size": "[2, 6]"})");
    CHECK(uneven.op == CollOp::alltoall);
    CHECK(uneven.bytes == Bytes(64));
    CHECK(uneven.split == std::vector<Bytes>{Bytes(16), Bytes(48)});  // 2 and 6 rows of 2 floats
    CHECK_FALSE(uneven.uneven_unknown);
    CHECK(call_of(head + R"("In split size": "[4, 4]"})").split.empty());  // even: no split needed
    CHECK(call_of(head + R"("In split size": "[3, 2]"})").uneven_unknown);  // 5 rows do not divide 16 elements
    CHECK(call_of(head + R"("In split size": "[1, ...]"})").uneven_unknown);
    CHECK_THROWS_WITH(call_of(head + R"("In split size": "[1, 2, 3]"})"),
                      Catch::Contains("traceEvents[0].args.In split size: expected a count for each of the group's 2 "
                                      "ranks"));
    CHECK_THROWS_WITH(call_of(head + R"("In split size": "[10, 10]"})"),
                      Catch::Contains("expected rows that add up to at most 16"));
}
