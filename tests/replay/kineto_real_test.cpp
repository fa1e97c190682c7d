// The Kineto importer on the real PyTorch profiler traces in ../shared/real-inputs
// (HTA's and PARAM's test data; skipped where absent). Every NCCL kernel whose
// launch the trace holds gets its collective and size from the CPU side, and
// the op mix matches the CPU ops (c10d::* / nccl:*). The figures were counted
// from the files independently of collsim (correlation -> runtime call ->
// enclosing CPU ops; "Input Dims" x the dtype's size).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "sim/hw/topology_loader.hpp"
#include "sim/replay/import/any_trace.hpp"
#include "sim/replay/replayer.hpp"
#include "tests/replay/kineto_mix.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/topology_inputs.hpp"

using namespace collsim;
namespace fs = std::filesystem;

namespace {
std::string kineto_real(const std::string& relative) {
    return test::source_path("../shared/real-inputs/kineto/" + relative);
}

bool kineto_real_skip() {
    if (fs::exists(kineto_real(""))) return false;
    WARN("../shared/real-inputs is not here: skipped");
    return true;
}
}  // namespace

TEST_CASE("real Kineto traces of PyTorch 2.2+: sizes on the kernels, communicators from the process groups",
          "[kineto]") {
    if (kineto_real_skip()) return;
    const Trace t = load_any_trace(kineto_real("hta-nccl_parser_config-nccl_data.json.gz"));
    CHECK(t.ranks == 2);
    test::KinetoMix m = test::kineto_mix(t.program(0));
    // 15 c10d::allreduce_ and 6 c10d::broadcast_ in the file.
    CHECK(m.sized == std::map<CollOp, int>{{CollOp::allreduce, 15}, {CollOp::broadcast, 6}});
    CHECK(m.bytes[CollOp::allreduce] == 306684384);
    CHECK(m.bytes[CollOp::broadcast] == 638712);
    CHECK(m.unsized.empty());
    CHECK(t.unsized.empty());
    REQUIRE(t.find_communicator("pg 0"));
    const ReplayResult r = replay(test::dgx_h100(), t, ReplayOptions{});
    CHECK(r.collectives.size() == 21);
    for (const auto& c : r.collectives) CHECK(c.algo != "measured");
}

TEST_CASE("real Kineto traces of PyTorch 2.0: all 8 ranks of a DLRM step sized from nccl:* Input Dims", "[kineto]") {
    if (kineto_real_skip()) return;
    const std::string dir = "/tmp/collsim-kineto-real-" + std::to_string(::getpid());
    fs::create_directories(dir);
    REQUIRE(std::system(("tar -xzf '" + kineto_real("param-dlrm_kineto.tar.gz") + "' -C '" + dir + "'").c_str()) == 0);
    const Trace t = load_any_trace(dir + "/dlrm_kineto");
    REQUIRE(t.ranks == 8);
    for (int rank = 0; rank < 8; ++rank) {
        INFO("rank " << rank);
        test::KinetoMix m = test::kineto_mix(t.program(rank));
        // Per rank 3 c10d::allreduce_ (AllReduce kernels) and 5 c10d::alltoall_base_ (SendRecv kernels).
        CHECK(m.sized == std::map<CollOp, int>{{CollOp::allreduce, 3}, {CollOp::alltoall, 5}});
        CHECK(m.bytes[CollOp::allreduce] == 2485252);  // 394241 + 112 + 226960 floats
        CHECK(m.bytes[CollOp::alltoall] == 64448);
        CHECK(m.unsized.empty());
    }
    const ReplayResult r = replay(test::dgx_h100(), t, ReplayOptions{});
    CHECK(r.collectives.size() == 8);
    for (const auto& c : r.collectives) CHECK(c.algo != "measured");

    // Two of the eight files are not the job.
    const std::string partial = dir + "/two";
    fs::create_directories(partial);
    for (const auto& e : fs::directory_iterator(dir + "/dlrm_kineto"))
        if (e.path().filename().string().starts_with("worker0") || e.path().filename().string().starts_with("worker5"))
            fs::copy(e.path(), partial);
    const auto refused = test::run_cli("replay --topology topologies/dgx-h100.yaml --trace " + partial);
    CHECK(refused.exit_code == 2);
    CHECK_THAT(refused.err, Catch::Contains(partial + ": world_size: expected a trace for each of the job's 8 ranks"));
    CHECK_THAT(refused.err, Catch::Contains("found 2 files, of ranks 0, 5"));
    fs::remove_all(dir);
}

TEST_CASE("real Kineto traces: SendRecv kernels take the collective of the op that launched them", "[kineto][slow]") {
    if (kineto_real_skip()) return;
    const Trace sixteen = load_any_trace(kineto_real("hta-negative_queue_length-rank0.json.gz"));
    CHECK(sixteen.ranks == 16);
    const Topology two_servers = load_topology(test::source_path("tests/data/replay/two-servers.yaml"));
    CHECK(replay(two_servers, sixteen, ReplayOptions{}).collectives.size() == 80);
    test::KinetoMix m = test::kineto_mix(sixteen.program(0));
    // All 80 NCCL kernels are named SendRecv; 75 have their launch in the trace.
    CHECK(m.sized == std::map<CollOp, int>{{CollOp::alltoall, 45},
                                           {CollOp::allreduce, 10},
                                           {CollOp::allgather, 10},
                                           {CollOp::reducescatter, 10}});
    CHECK(m.bytes[CollOp::alltoall] == 157873564);
    CHECK(m.bytes[CollOp::allreduce] == 8965794640);
    CHECK(m.bytes[CollOp::allgather] == 1174405120);  // 16 x the nccl:_all_gather_base inputs
    CHECK(m.bytes[CollOp::reducescatter] == 587202560);
    CHECK(m.unsized == std::map<CollOp, int>{{CollOp::sendrecv, 5}});
    REQUIRE(sixteen.unsized.size() == 5);
    CHECK_THAT(sixteen.unsized[0].reason, Catch::Contains("its launch is not in the trace"));
    bool said = false;
    for (const std::string& n : sixteen.notes)
        said |= n.find("10 SendRecv kernels launched by nccl:all_reduce are taken as allreduce") != std::string::npos;
    CHECK(said);

    const Trace two = load_any_trace(kineto_real("hta-trace_diff-test.json.gz"));
    test::KinetoMix d = test::kineto_mix(two.program(0));
    // 42 nccl:all_to_all (no c10d op around them) and 18 c10d::allreduce_.
    CHECK(d.sized == std::map<CollOp, int>{{CollOp::alltoall, 42}, {CollOp::allreduce, 18}});
    CHECK(d.bytes[CollOp::alltoall] == 3843365920);
    CHECK(d.bytes[CollOp::allreduce] == 1200223224);
    CHECK(d.unsized == std::map<CollOp, int>{{CollOp::allreduce, 3}, {CollOp::sendrecv, 1}});
}

TEST_CASE("a real Kineto trace with no GPU activity is exit 2", "[kineto]") {
    if (kineto_real_skip()) return;
    const std::string file = kineto_real("hta-distributed_info_not_found.json.gz");
    const auto r = test::run_cli("replay --topology topologies/dgx-h100.yaml --trace " + file);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(file + ":"));
    CHECK_THAT(r.err, Catch::Contains("traceEvents: expected GPU activity to replay: kernels, memcpys or memsets"));
}
