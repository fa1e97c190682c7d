#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;

namespace {
const std::string kDgx = "coll --topology topologies/dgx-h100.yaml ";
}

TEST_CASE("coll prints one row per size of the sweep") {
    auto r = run_cli(kDgx + "--op allreduce --algo ring --ranks 8 --sizes 8:1K");
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK_THAT(r.out, Catch::Contains("(GB/s)"));
    // 8, 16, ..., 1024: eight sizes
    int rows = 0;
    for (std::size_t pos = 0; (pos = r.out.find(" float ", pos)) != std::string::npos; ++pos) ++rows;
    CHECK(rows == 8);
}

TEST_CASE("coll JSON has the stable field names") {
    auto r = run_cli(kDgx + "--ranks 4 --sizes 8,1M --format json");
    REQUIRE(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out);
    for (const char* k : {"op", "algo", "proto", "ranks", "topology", "rows"}) CHECK(j.contains(k));
    CHECK(j["op"] == "allreduce");
    CHECK(j["algo"] == "auto");
    CHECK(j["rows"][0]["algo"] == "ring");
    CHECK(j["rows"][0]["proto"] == "ll");
    CHECK(j["ranks"] == 4);
    CHECK(j["topology"] == "dgx-h100");
    REQUIRE(j["rows"].size() == 2);
    for (const char* k : {"size_bytes", "count", "type", "time_us", "algbw_GBps", "busbw_GBps"})
        CHECK(j["rows"][0].contains(k));
    CHECK(j["rows"][1]["size_bytes"] == 1048576);
    CHECK(j["rows"][1]["count"] == 262144);
    const double algbw = j["rows"][1]["algbw_GBps"], busbw = j["rows"][1]["busbw_GBps"];
    CHECK(busbw == Approx(algbw * 2 * 3 / 4));
}

TEST_CASE("two runs with the same inputs give byte-identical JSON") {
    const std::string args = kDgx + "--sizes 8:64M --format json --seed 7";
    auto a = run_cli(args), b = run_cli(args);
    REQUIRE(a.exit_code == 0);
    CHECK(a.out == b.out);
    auto pa = run_cli("coll --topology topologies/pcie-gen4-x8-8gpu.yaml --sizes 1K:4M --format csv");
    auto pb = run_cli("coll --topology topologies/pcie-gen4-x8-8gpu.yaml --sizes 1K:4M --format csv");
    CHECK(pa.out == pb.out);
}

TEST_CASE("coll --disable keeps the tuner off what NCCL was told not to use") {
    // Two DGX H100: NVLSTree for 1 GiB, unless NVLS is off (NCCL_NVLS_ENABLE=0).
    const std::string two = "coll --topology topologies/cluster-h100-2n.yaml --sizes 1G --format csv";
    const auto tuned = run_cli(two), off = run_cli(two + " --disable nvls_tree,nvls");
    REQUIRE(tuned.exit_code == 0);
    REQUIRE(off.exit_code == 0);
    CHECK_THAT(tuned.out, Catch::Contains("nvls_tree"));
    CHECK_THAT(off.out, !Catch::Contains("nvls"));
}

TEST_CASE("LL moves at most NCCL's llMaxBw per rank, in the flow simulation and the closed form") {
    // 8 H100 over NVLink 4: half of 450 GB/s would be 225 GB/s of LL payload;
    // NCCL's cost model caps LL at 141 GB/s of bus bandwidth on Hopper.
    for (const char* model : {"flow", "analytical"}) {
        INFO(model);
        auto r = run_cli(kDgx + "--algo ring --proto ll --sizes 256M --format json --model " + std::string(model));
        REQUIRE(r.exit_code == 0);
        const double busbw = nlohmann::json::parse(r.out)["rows"][0]["busbw_GBps"];
        CHECK(busbw <= 141.0);
        CHECK(busbw > 130.0);
    }
}

TEST_CASE("CollNet runs only where it is enabled, as NCCL_COLLNET_ENABLE=1 does") {
    // Two DGX H100 under SHARP switches: 1 MiB takes CollNet once it may.
    const std::string two = "coll --topology topologies/cluster-h100-2n.yaml --sizes 1M --format csv";
    const auto by_default = run_cli(two), on = run_cli(two + " --enable collnet");
    REQUIRE(by_default.exit_code == 0);
    REQUIRE(on.exit_code == 0);
    CHECK_THAT(by_default.out, !Catch::Contains("collnet"));
    CHECK_THAT(on.out, Catch::Contains(",collnet,"));
    // Forcing it needs no --enable, as NCCL_ALGO=CollNet picks it.
    const auto forced = run_cli(two + " --algo collnet");
    REQUIRE(forced.exit_code == 0);
    CHECK_THAT(forced.out, Catch::Contains(",collnet,"));
    const std::string replay = "replay --topology topologies/cluster-h100-2n.yaml --trace tests/data/replay/"
                               "allreduce-1m-16.yaml --format json";
    CHECK_THAT(run_cli(replay).out, !Catch::Contains("\"collnet\""));
    CHECK_THAT(run_cli(replay + " --enable collnet").out, Catch::Contains("\"collnet\""));
}

TEST_CASE("bad command-line values exit 2 and name the option") {
    struct Case {
        std::string args, expect;
    };
    for (const Case& c : {
             Case{kDgx + "--op allscatter", "--op: expected one of allreduce"},
             Case{kDgx + "--algo spiral", "--algo: expected one of ring"},
             Case{kDgx + "--sizes 8:lots", "--sizes: expected a size like '8', '64K', '1MiB' or '1G', found 'lots'"},
             Case{kDgx + "--sizes 1M:8", "--sizes: expected MIN no larger than MAX"},
             Case{kDgx + "--ranks 9", "--ranks: expected 1 to 8"},
             Case{kDgx + "--format xml", "--format: expected one of table, json, csv"},
             Case{kDgx + "--proto ll256", "--proto: expected one of ll, ll128, simple"},
             Case{kDgx + "--disable nvls,warp", "--disable: expected one of ring, tree, rhd, nvls, nvls_tree"},
             Case{kDgx + "--algo nvls --disable nvls", "--disable: expected algorithms other than the one --algo "
                                                       "forces, found 'nvls'"},
             Case{kDgx + "--enable nvls", "--enable: expected an algorithm NCCL leaves off by default: collnet (as "
                                          "NCCL_COLLNET_ENABLE=1), found 'nvls'"},
             Case{kDgx + "--enable collnet --disable collnet",
                  "--enable: expected an algorithm that --disable does not also name, found 'collnet'"},
             Case{"replay --topology topologies/dgx-h100.yaml --trace workloads/samples/tp-decode-8gpu.yaml --enable ring",
                  "--enable: expected an algorithm NCCL leaves off by default"},
             Case{"coll --topology topologies/no-such.yaml", "topologies/no-such.yaml: file: expected a readable file"},
             Case{"coll", "--topology is required"},
         }) {
        INFO(c.args);
        auto r = run_cli(c.args);
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK_THAT(r.err, Catch::Contains(c.expect));
    }
}

TEST_CASE("a broken topology file exits 2 with file, line, column and field") {
    struct Case {
        std::string file, expect;
    };
    for (const Case& c : {
             Case{"malformed.yaml", "tests/data/bad/malformed.yaml:4:6: yaml: expected well-formed YAML"},
             Case{"unknown-kind.yaml", "tests/data/bad/unknown-kind.yaml:4:22: devices[1].kind: expected one of gpu"},
             Case{"missing-device.yaml", "tests/data/bad/missing-device.yaml:6:16: links[0].b: expected the name"},
             Case{"bad-unit.yaml",
                  "tests/data/bad/bad-unit.yaml:6:61: links[0].bandwidth: expected a bandwidth unit"},
             Case{"zero-bandwidth.yaml",
                  "tests/data/bad/zero-bandwidth.yaml:6:61: links[0].bandwidth: expected a positive bandwidth"},
             Case{"disconnected.yaml",
                  "tests/data/bad/disconnected.yaml:5:5: devices[2]: expected a GPU connected to the other GPUs"},
         }) {
        INFO(c.file);
        auto r = run_cli("coll --topology tests/data/bad/" + c.file);
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::Contains(c.expect));
    }
}

TEST_CASE("coll --gpus-per-thread times small collectives as one thread's launches bound them") {
    // nccl-tests -g 8: one thread launches on all 8 GPUs, 4.2 us each; 1 GiB is bound by the GPUs.
    const auto own = run_cli(kDgx + "--sizes 8,1G --format json");
    const auto shared = run_cli(kDgx + "--sizes 8,1G --format json --gpus-per-thread 8");
    REQUIRE(own.exit_code == 0);
    REQUIRE(shared.exit_code == 0);
    const auto a = nlohmann::json::parse(own.out)["rows"], b = nlohmann::json::parse(shared.out)["rows"];
    CHECK(a[0]["time_us"].get<double>() < 33.6);
    CHECK(b[0]["time_us"].get<double>() == Approx(33.6));
    CHECK(b[1]["time_us"] == a[1]["time_us"]);
    const auto bad = run_cli(kDgx + "--gpus-per-thread 0");
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.err, Catch::Contains("--gpus-per-thread: expected 1 or more GPUs per thread, found '0'"));
}

TEST_CASE("collsim alone prints its usage, and --version the version and the commit it was built from") {
    auto usage = run_cli("");
    CHECK(usage.exit_code == 0);
    CHECK_THAT(usage.out, Catch::Contains("Usage: collsim"));
    CHECK_THAT(usage.out, Catch::Contains("coll"));
    auto version = run_cli("--version");
    CHECK(version.exit_code == 0);
    CHECK_THAT(version.out, Catch::Contains("collsim 0.1.0 (commit "));
}
