// Issue 24's conventions: NCCL's and nccl-tests' spellings on the command
// line, NCCL_* in the environment, hangs that never look like times, JSON that
// says how it was made, and topo check's JSON errors.
#include <catch2/catch.hpp>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;

namespace {
const std::string kConventionsDgx = "coll -t topologies/dgx-h100.yaml --quiet ";

// Sets an environment variable for the scope (the CLI runs as a child and inherits it).
struct ConventionsEnv {
    explicit ConventionsEnv(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
    ~ConventionsEnv() { unsetenv(name_); }
    const char* name_;
};
}  // namespace

TEST_CASE("coll takes NCCL's spellings of algorithms, protocols, collectives and types") {
    const auto r = run_cli(kConventionsDgx + "--algo Ring --proto LL128 --op all_reduce --dtype bf16 --sizes 1M --format json");
    REQUIRE(r.exit_code == 0);
    const auto row = nlohmann::json::parse(r.out)["rows"][0];
    CHECK(row["algo"] == "ring");
    CHECK(row["proto"] == "ll128");
    CHECK(row["type"] == "bfloat16");
    const auto tree = run_cli("coll -t topologies/cluster-h100-2n.yaml --quiet --algo NVLSTree --op all_reduce "
                              "--sizes 1M --links 0 --format json");
    CHECK(tree.exit_code == 0);
    CHECK(nlohmann::json::parse(tree.out)["rows"][0]["algo"] == "nvls_tree");
    const auto pat = run_cli(kConventionsDgx + "--algo PAT --sizes 1M");
    CHECK(pat.exit_code == 2);
    CHECK_THAT(pat.err, Catch::Contains("--algo") && Catch::Contains("'PAT'"));
}

TEST_CASE("coll runs an nccl-tests command line: -b -e -f -g -d -o, with -n -w -c noted and ignored") {
    const auto r = run_cli(kConventionsDgx + "-b 8 -e 128 -f 2 -g 8 -d half -o max -n 20 -w 5 -c 1");
    REQUIRE(r.exit_code == 0);
    for (const char* size : {"\n           8 ", "\n          16 ", "\n          32 ", "\n          64 ", "\n         128 "})
        CHECK_THAT(r.out, Catch::Contains(size));
    CHECK_THAT(r.out, !Catch::Contains("\n         256 "));
    CHECK_THAT(r.out, Catch::Contains("    half     max"));
    CHECK_THAT(r.out, Catch::Contains("\n# Avg bus bandwidth    : "));
    CHECK_THAT(r.err, Catch::Contains("note: --iters 20 is nccl-tests' and is ignored"));
    CHECK_THAT(r.err, Catch::Contains("note: --warmup_iters 5 is nccl-tests'"));
    CHECK_THAT(r.err, Catch::Contains("note: --check 1 is nccl-tests'"));
    CHECK_THAT(r.err, Catch::Contains("note: --redop max is timed as sum"));
    // nccl-tests' linear steps (-i, with -f at its default 1).
    const auto linear = run_cli(kConventionsDgx + "-b 1M -e 4M -i 1M --format json");
    REQUIRE(linear.exit_code == 0);
    CHECK(nlohmann::json::parse(linear.out)["rows"].size() == 4);
    const auto huge = run_cli(kConventionsDgx + "-b 1 -e 1G -i 1");
    CHECK(huge.exit_code == 2);
    CHECK_THAT(huge.err, Catch::Contains("--stepbytes: expected a sweep of at most 100000 sizes (the sweep size limit), "
                                         "found '1073741824 sizes from 1 to 1073741824 B'"));
    const auto both = run_cli(kConventionsDgx + "-b 8 --sizes 8:1K");
    CHECK(both.exit_code == 2);
    CHECK_THAT(both.err, Catch::Contains("--sizes: expected either --sizes or nccl-tests' -b/-e/-f/-i"));
}

TEST_CASE("NCCL_ALGO and NCCL_PROTO in the environment are followed, with a note, unless the command line says") {
    const ConventionsEnv algo("NCCL_ALGO", "Tree");
    const ConventionsEnv proto("NCCL_PROTO", "Simple");
    const auto r = run_cli(kConventionsDgx + "--sizes 1M --format json");
    REQUIRE(r.exit_code == 0);
    const auto row = nlohmann::json::parse(r.out)["rows"][0];
    CHECK(row["algo"] == "tree");
    CHECK(row["proto"] == "simple");
    CHECK_THAT(r.err, Catch::Contains("note: following NCCL_ALGO=Tree from the environment: --algo tree"));
    const auto given = run_cli(kConventionsDgx + "--sizes 1M --algo ring --format json");
    REQUIRE(given.exit_code == 0);
    CHECK(nlohmann::json::parse(given.out)["rows"][0]["algo"] == "ring");
    CHECK_THAT(given.err, Catch::Contains("note: NCCL_ALGO=Tree in the environment is overridden by --algo"));
}

TEST_CASE("NCCL_NVLS_ENABLE=0 in the environment keeps the tuner off NVLS") {
    const ConventionsEnv nvls("NCCL_NVLS_ENABLE", "0");
    const auto r = run_cli(kConventionsDgx + "--sizes 1G --format json");
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(nlohmann::json::parse(r.out)["rows"][0]["algo"].get<std::string>(), !Catch::Contains("nvls"));
    CHECK_THAT(r.err, Catch::Contains("note: following NCCL_NVLS_ENABLE=0 from the environment: --disable nvls,nvls_tree"));
}

TEST_CASE("a hang shows no time in any format: hang in the table, null in JSON, a hang column in CSV") {
    const std::string hung = "coll -t tests/data/faults/two-nodes.yaml --sizes 1M --faults tests/data/faults/nic-down.yaml ";
    const auto table = run_cli(hung);
    REQUIRE(table.exit_code == 0);
    CHECK_THAT(table.out, Catch::Contains("     hang       -       -"));
    CHECK_THAT(table.out, Catch::Contains("# Avg bus bandwidth    : N/A (over the 0 sizes that finished; 1 hung)"));
    const auto json = run_cli(hung + "--format json");
    const auto row = nlohmann::json::parse(json.out)["rows"][0];
    CHECK(row["time_us"].is_null());
    CHECK(row["busbw_GBps"].is_null());
    CHECK(row.contains("hang"));
    const auto csv = run_cli(hung + "--format csv");
    CHECK_THAT(csv.out, Catch::StartsWith("size_bytes,count,type,time_us,algbw_GBps,busbw_GBps,algo,proto,channels,redop,"
                                          "root,model,hang,op,topology,ranks\n"));
    CHECK_THAT(csv.out, Catch::Contains("\n1048576,262144,float,,,,") && Catch::Contains(",yes,allreduce,"));
}

TEST_CASE("every JSON output says collsim's version, the topology and its hash, calibration, seed and model") {
    const auto coll = run_cli(kConventionsDgx + "--sizes 1M --format json --seed 7");
    REQUIRE(coll.exit_code == 0);
    const auto j = nlohmann::json::parse(coll.out);
    CHECK(j["collsim_version"].is_string());
    CHECK(j["inputs"]["topology"]["path"] == "topologies/dgx-h100.yaml");
    CHECK(j["inputs"]["topology"]["fnv1a64"].get<std::string>().size() == 16);
    CHECK(j["inputs"]["calibration"] == "defaults");
    CHECK(j["inputs"]["seed"] == 7);
    CHECK(j["inputs"]["model"] == "auto");
    for (const std::string& args : {std::string("topo show topologies/dgx-h100.yaml --format json"),
                                    std::string("diagnose tests/data/timings/late-rank5.csv --format json"),
                                    std::string("numerics --elements 1K --format json")}) {
        const auto r = run_cli(args);
        INFO(args);
        REQUIRE(r.exit_code == 0);
        CHECK(nlohmann::json::parse(r.out).contains("collsim_version"));
    }
}

TEST_CASE("topo check --format json lists each error with its file, line, column, field, expected and found") {
    const auto bad = run_cli("topo check tests/data/faults/nic-down.yaml --format json");
    CHECK(bad.exit_code == 2);
    const auto j = nlohmann::json::parse(bad.out);
    CHECK(j["valid"] == false);
    REQUIRE(!j["errors"].empty());
    for (const char* key : {"file", "line", "column", "field", "expected", "found"}) CHECK(j["errors"][0].contains(key));
    CHECK(j["errors"][0]["file"] == "tests/data/faults/nic-down.yaml");
    const auto good = run_cli("topo check topologies/dgx-h100.yaml --format json");
    CHECK(good.exit_code == 0);
    const auto ok = nlohmann::json::parse(good.out);
    CHECK(ok["valid"] == true);
    CHECK(ok["errors"].empty());
}

TEST_CASE("a device or an oversized input is refused at once, naming the limit") {
    const auto trace = run_cli("replay --topology topologies/dgx-h100.yaml --trace /dev/zero");
    CHECK(trace.exit_code == 2);
    CHECK_THAT(trace.err, Catch::Contains("/dev/zero: file: expected a regular file or a pipe, found a character device"));
    const auto topo = run_cli("coll --topology /dev/zero");
    CHECK(topo.exit_code == 2);
    CHECK_THAT(topo.err, Catch::Contains("/dev/zero: file: expected a regular file or a pipe, found a character device"));
}
