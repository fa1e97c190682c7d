#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/validate/dataset.hpp"
#include "sim/validate/measurement.hpp"
#include "sim/validate/nccl_env.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/input_error.hpp"

using namespace collsim;
using collsim::test::source_path;

namespace {

NcclSelection select(const std::string& text, CollOp op = CollOp::allreduce) {
    return nccl_selection(nccl_settings_in(text, "f", 4, 1), op);
}

std::string select_error(const std::string& text) {
    return test::input_error_of([&] { select(text); });
}

const std::string kEnvLogs = "tests/data/nccl-logs/";

}  // namespace

TEST_CASE("NCCL settings in an env line: NAME=VALUE, not prose about several runs") {
    const auto s = nccl_settings_in("NCCL_ALGO=ring; NCCL_DEBUG=WARN NCCL_PROTO=^LL128", "f.csv", 4, 8);
    REQUIRE(s.size() == 3);
    CHECK(s[0].name == "NCCL_ALGO");
    CHECK(s[0].value == "ring");
    CHECK(s[0].at.line == 4);
    CHECK(s[0].at.column == 8);
    CHECK(s[1].value == "WARN");
    CHECK(s[2].value == "^LL128");
    CHECK(s[2].at.column == 8 + 32);
    // A list cut by a space, a name inside another word, no value, no '=': not settings.
    CHECK(nccl_settings_in("runs NCCL_ALGO=Tree, Ring, NVLS in turn", "f", 1, 1).empty());
    const auto listed = nccl_settings_in("NCCL_NVLS_ENABLE=0, NCCL_ALGO=Ring,Tree, FI_PROVIDER=efa", "f", 1, 1);
    REQUIRE(listed.size() == 2);
    CHECK(listed[0].value == "0");
    CHECK(listed[1].value == "Ring,Tree");
    CHECK(nccl_settings_in("NCCL_ALGO=ring,", "f", 1, 1)[0].value == "ring");
    CHECK(nccl_settings_in("XNCCL_ALGO=ring NCCL_ALGO= no NCCL_ALGO/PROTO", "f", 1, 1).empty());
    // ';' joins a value's per-function lists, or ends it before another setting.
    const auto lists = nccl_settings_in("NCCL_ALGO=ring;allreduce:tree NCCL_DEBUG=WARN", "f", 1, 1);
    REQUIRE(lists.size() == 2);
    CHECK(lists[0].value == "ring;allreduce:tree");
    const auto joined = nccl_settings_in("NCCL_ALGO=ring;NCCL_PROTO=LL", "f", 1, 1);
    REQUIRE(joined.size() == 2);
    CHECK(joined[0].value == "ring");
    CHECK(joined[1].value == "LL");
}

TEST_CASE("NCCL_ALGO and NCCL_PROTO lists per function (NCCL 2.24 and later)") {
    CHECK(select("NCCL_ALGO=ring;allreduce:tree").algo == "tree");
    CHECK(select("NCCL_ALGO=ring;allreduce:tree", CollOp::allgather).algo == "ring");
    CHECK(select("NCCL_ALGO=ring;AllReduce:tree;allreduce:nvls").algo == "nvls");  // the last list for a function
    CHECK(select("NCCL_ALGO=allgather:ring").algo == "auto");  // AllReduce left at NCCL's default
    CHECK(select("NCCL_ALGO=allgather:ring", CollOp::alltoall).algo == "auto");
    const auto proto = select("NCCL_PROTO=^LL128;allreduce:LL128");
    CHECK(proto.proto == "ll128");
    CHECK(proto.protos.disabled.empty());
    CHECK(select("NCCL_PROTO=^LL128;allreduce:LL128", CollOp::broadcast).protos.disabled ==
          std::vector<ProtoKind>{ProtoKind::ll128});
    CHECK(select("NCCL_PROTO=LL,Simple;allreduce:^LL").protos.disabled == std::vector<ProtoKind>{ProtoKind::ll});
    // NCCL rejects a later list without a prefix, and prefixes that are not its functions.
    CHECK_THAT(select_error("NCCL_ALGO=ring;tree"),
               Catch::Contains("f:4:16: NCCL_ALGO: expected a 'function:' prefix on every list after the first"));
    CHECK_THAT(select_error("NCCL_ALGO=ring;alltoall:tree"),
               Catch::Contains("f:4:16: NCCL_ALGO: expected a function prefix: Broadcast, Reduce, AllGather, "
                               "ReduceScatter or AllReduce, found 'alltoall'"));
    CHECK_THAT(select_error("NCCL_ALGO=allreduce:spiral"), Catch::Contains("found 'spiral'"));
}

TEST_CASE("one NCCL setting with two values in a log is rejected, repeats are not") {
    CHECK(select("NCCL_ALGO=ring NCCL_ALGO=ring").algo == "ring");
    CHECK(select("NCCL_DEBUG=INFO NCCL_ALGO=ring NCCL_DEBUG=WARN").algo == "ring");  // not one collsim follows
    CHECK_THAT(select_error("NCCL_ALGO=ring NCCL_ALGO=tree"),
               Catch::Contains("f:4:16: NCCL_ALGO: expected the value it had at line 4, column 1 ('ring'), "
                               "found 'tree'"));
    const auto dir = std::filesystem::temp_directory_path() / "collsim-nccl-env-test";
    std::filesystem::create_directories(dir);
    std::ifstream in(source_path(kEnvLogs + "forced-ring-simple.log"));
    std::stringstream text;
    text << in.rdbuf();
    std::string log = text.str();
    const std::string rank1 = "[1] NCCL INFO NCCL_PROTO set by environment to Simple";
    REQUIRE(log.find(rank1) != std::string::npos);
    log.replace(log.find(rank1), rank1.size(), "[1] NCCL INFO NCCL_PROTO set by environment to LL128");
    const auto path = (dir / "two-protos.log").string();
    std::ofstream(path) << log;
    auto r = collsim::test::run_cli("validate --log " + path + " --topology tests/data/validate/two-gpus.yaml");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("two-protos.log:9:") && Catch::Contains("NCCL_PROTO: expected the value it had at "
                                                                             "line 8") &&
                          Catch::Contains("found 'LL128'"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("what NCCL_ALGO, NCCL_PROTO, NCCL_NVLS_ENABLE and NCCL_COLLNET_ENABLE ask of the prediction") {
    CHECK(select("NCCL_ALGO=Ring").algo == "ring");
    CHECK(select("NCCL_ALGO=NVLSTree").algo == "nvls_tree");
    CHECK(select("NCCL_ALGO=COLLNETDIRECT").algo == "collnet");
    CHECK(select("NCCL_PROTO=LL128").proto == "ll128");
    CHECK(select("NCCL_ALGO=^NVLS,NVLSTree").disabled == std::vector<std::string>{"nvls", "nvls_tree"});
    // Several allowed: everything else is off and the tuner chooses between them.
    const auto two = select("NCCL_ALGO=Ring,Tree");
    CHECK(two.algo == "auto");
    CHECK(two.disabled == std::vector<std::string>{"collnet", "nvls", "nvls_tree"});
    CHECK(select("NCCL_NVLS_ENABLE=0").disabled == std::vector<std::string>{"nvls", "nvls_tree"});
    CHECK(select("NCCL_NVLS_ENABLE=1").disabled.empty());
    CHECK(select("NCCL_COLLNET_ENABLE=1").enabled == std::vector<std::string>{"collnet"});
    CHECK(select("NCCL_IB_HCA=mlx5_0 NCCL_DEBUG=INFO").algo == "auto");
    CHECK_THAT(select_error("NCCL_ALGO=Spiral"), Catch::Contains("f:4:1: NCCL_ALGO: expected NCCL algorithms"));
    CHECK_THAT(select_error("NCCL_ALGO=PAT"), Catch::Contains("expected an algorithm collsim models"));
    CHECK(select("NCCL_PROTO=^LL128").protos.disabled == std::vector<ProtoKind>{ProtoKind::ll128});
    const auto listed = select("NCCL_PROTO=LL128,Simple");
    CHECK(listed.proto == "auto");
    CHECK(listed.protos.enabled == std::vector<ProtoKind>{ProtoKind::ll128, ProtoKind::simple});
    CHECK(listed.protos.disabled == std::vector<ProtoKind>{ProtoKind::ll});
    CHECK_THAT(select_error("NCCL_PROTO=LL,Fast"), Catch::Contains("f:4:1: NCCL_PROTO: expected NCCL protocols: LL, "
                                                                   "LL128, Simple, found 'Fast'"));
}

TEST_CASE("a log's NCCL settings set what its prediction forces") {
    const Measurement csv = read_measurement(source_path(kEnvLogs + "sample-env.csv"));
    REQUIRE(csv.nccl_env.size() == 3);  // NVLS_ENABLE, ALGO, DEBUG; not the prose list
    CHECK(csv.nccl_env[1].at.line == 4);
    CHECK(csv.nccl_env[1].at.column == 27);
    const Measurement log = read_measurement(source_path(kEnvLogs + "forced-ring-simple.log"));
    REQUIRE(log.nccl_env.size() == 2);  // each rank prints NCCL_PROTO; the first is kept
    CHECK(log.nccl_env[0].value == "Simple");
    CHECK(log.nccl_env[1].name == "NCCL_ALGO");

    TopologyCache machines;
    const Dataset d = log_dataset(source_path(kEnvLogs + "sample-env.csv"), source_path("topologies/dgx-h100.yaml"), machines);
    CHECK(d.algo == "tree");
    CHECK(d.disabled == std::vector<std::string>{"nvls", "nvls_tree"});
    const Dataset b = log_dataset(source_path(kEnvLogs + "forced-ring-simple.log"),
                                  source_path("tests/data/validate/two-gpus.yaml"), machines);
    CHECK(b.algo == "ring");
    CHECK(b.proto == "simple");
}

TEST_CASE("a declaration that contradicts the log's NCCL settings is rejected") {
    auto r = collsim::test::run_cli("validate --log " + kEnvLogs + "sample-env.csv --topology topologies/dgx-h100.yaml --algo ring");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("algo: expected tree, as "));
    CHECK_THAT(r.err, Catch::Contains("sample-env.csv's NCCL_ALGO says, found ring"));
    auto e = collsim::test::run_cli("validate --log " + kEnvLogs + "sample-env.csv --topology topologies/dgx-h100.yaml --enable nvls");
    CHECK(e.exit_code == 2);
    auto ok = collsim::test::run_cli("validate --log " + kEnvLogs + "sample-env.csv --topology topologies/dgx-h100.yaml --algo tree "
                                     "--format csv");
    CHECK(ok.exit_code == 0);
    CHECK_THAT(ok.out, Catch::Contains(",tree,"));
}

TEST_CASE("a log whose NCCL_PROTO excluded LL is predicted without LL") {
    auto validate = [](const std::string& log) {
        return collsim::test::run_cli("validate --log " + kEnvLogs + log + " --topology topologies/dgx-h100.yaml --format csv");
    };
    const auto with = validate("sample-mpi.csv"), without = validate("sample-no-ll.csv");
    REQUIRE(with.exit_code == 0);
    REQUIRE(without.exit_code == 0);
    CHECK_THAT(with.out, Catch::Contains(",1024,21.450,") && Catch::Contains(",ring,ll\n"));
    CHECK_THAT(without.out, !Catch::Contains(",ll\n"));
}

TEST_CASE("the harness's stated NCCL_ALGO and NCCL_PROTO are read, and NCCL_ALGO spares point-to-point runs") {
    const Measurement m = read_measurement(source_path(kEnvLogs + "harness-alltoall-forced.txt"));
    REQUIRE(m.nccl_env.size() == 2);
    CHECK(m.nccl_env[0].value == "ring");
    CHECK(m.nccl_env[0].at.line == 1);
    CHECK(read_measurement(source_path(kEnvLogs + "harness-alltoall.txt")).nccl_env.empty());  // exported nothing
    TopologyCache machines;
    const Dataset d = log_dataset(source_path(kEnvLogs + "harness-alltoall-forced.txt"),
                                  source_path("topologies/rtx4090-4gpu.yaml"), machines);
    CHECK(d.algo == "auto");  // AllToAll runs as sends, whatever NCCL_ALGO says
    CHECK(d.proto == "simple");
}
