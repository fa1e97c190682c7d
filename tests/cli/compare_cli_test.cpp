#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;

TEST_CASE("compare of a topology with itself gives B/A 1 and 'same' on every row, run after run") {
    const std::string args = "compare topologies/pcie-gen4-x16-8gpu.yaml --sizes 8,1M,64M --format json";
    auto a = run_cli(args), b = run_cli(args);
    REQUIRE(a.exit_code == 0);
    CHECK(a.out == b.out);
    const auto j = nlohmann::json::parse(a.out);
    CHECK(j["kind"] == "coll");
    REQUIRE(j["rows"].size() == 3);
    for (const auto& row : j["rows"]) {
        CHECK(row["ratio"] == 1.0);
        CHECK(row["verdict"] == "same");
        CHECK(row["a"]["time_us"] == row["b"]["time_us"]);
        CHECK(row["a"]["links"].size() == 3);
    }
}

TEST_CASE("compare shows 2:1 oversubscription loading the spine links, and calls B slower") {
    auto r = run_cli("compare -t tests/data/compare/fat-tree-8n.yaml --b-set fabrics.net.oversubscription=2:1 "
                     "--op alltoall --sizes 64M --links 2");
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("# B: tests/data/compare/fat-tree-8n.yaml --set fabrics.net.oversubscription=2:1"));
    // The 1:1 fabric's two spines carry the leaves' traffic near capacity; at
    // 2:1 one spine carries it all, and the AllToAll takes about half as long again.
    CHECK_THAT(r.out, Catch::Contains("    67108864       1364.577       2035.666   1.492  slower"));
    CHECK_THAT(r.out, Catch::Contains("A: net.spine0->net.leaf0 49.18 GB/s 98%"));
    CHECK_THAT(r.out, Catch::Contains("B: net.leaf0->net.spine0 49.45 GB/s 99%"));
    auto csv = run_cli("compare -t tests/data/compare/fat-tree-8n.yaml --b-set fabrics.net.oversubscription=2:1 "
                       "--op alltoall --sizes 64M --format csv");
    CHECK_THAT(csv.out, Catch::StartsWith("size_bytes,a_time_us,b_time_us,ratio,verdict,a_algbw_GBps,b_algbw_GBps,"));
    CHECK_THAT(csv.out, Catch::Contains("\n67108864,1364.577"));
}

TEST_CASE("compare of two topology files and of two algorithms names each side") {
    auto files = run_cli("compare topologies/pcie-gen4-x16-8gpu.yaml topologies/pcie-gen4-x8-8gpu.yaml --sizes 1G --algo ring");
    REQUIRE(files.exit_code == 0);
    CHECK_THAT(files.out, Catch::Contains("# A: topologies/pcie-gen4-x16-8gpu.yaml --algo ring\n"));
    CHECK_THAT(files.out, Catch::Contains("# B: topologies/pcie-gen4-x8-8gpu.yaml --algo ring\n"));
    CHECK_THAT(files.out, Catch::Contains("slower"));  // x8 slots halve a large ring's bandwidth
    auto algos = run_cli("compare -t topologies/dgx-h100.yaml --a-algo ring --b-algo nvls --sizes 1G --format json");
    REQUIRE(algos.exit_code == 0);
    const auto j = nlohmann::json::parse(algos.out);
    CHECK(j["rows"][0]["a"]["algo"] == "ring/simple");
    CHECK(j["rows"][0]["b"]["algo"] == "nvls/simple");
    // An MSCCL file against the built-in tuner's choice.
    auto msccl = run_cli("compare topologies/cluster-h100-2n.yaml --sizes 1G --links 0 "
                         "--b-algo examples/msccl-hierarchical/hierarchical-allreduce-2x8.xml");
    REQUIRE(msccl.exit_code == 0);
    CHECK_THAT(msccl.out, Catch::Contains("# B: topologies/cluster-h100-2n.yaml --algo-file "
                                          "examples/msccl-hierarchical/hierarchical-allreduce-2x8.xml\n"));
    CHECK_THAT(msccl.out, Catch::Contains("  nvls_tree/simple        hierarchical_2x8/simple\n"));
    CHECK_THAT(msccl.out, Catch::Contains("slower"));
}

TEST_CASE("compare of a replay shows the step time and its breakdown on each side") {
    auto r = run_cli("compare -t topologies/pcie-gen4-x16-8gpu.yaml --b-set 'links[gpu*--pcie*].lanes=8' "
                     "--trace workloads/samples/tp-decode-8gpu.yaml --format json");
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["kind"] == "replay");
    REQUIRE(j["rows"].size() == 6);  // the step, then A's 5 longest collectives (--rows)
    const auto& step = j["rows"][0];
    CHECK(step["row"] == "step");
    CHECK(step["verdict"] == "slower");
    CHECK(step["ratio"].get<double>() > 1.02);
    for (const char* share : {"compute", "exposed_comm", "overlapped_comm", "idle"}) {
        CHECK(step["a"].contains(share));
        CHECK(step["b"].contains(share));
    }
    CHECK(step["b"]["exposed_comm"].get<double>() > step["a"]["exposed_comm"].get<double>());
    // Each collective beside the same one of B: an x8 slot slows the decode's TP AllReduce.
    const auto& first = j["rows"][1];
    CHECK(first["row"] == "T0.L0.attn.ar");
    CHECK(first["a"]["algo"] == "ring/ll");
    CHECK(first["verdict"] == "slower");
    CHECK(first["b"]["busbw_GBps"].get<double>() < first["a"]["busbw_GBps"].get<double>());
}

TEST_CASE("compare refuses bad input with exit 2") {
    struct Case {
        std::string args, message;
    };
    for (const Case& c : {
             Case{"compare --sizes 8", "--a-topology: expected a topology for each side"},
             Case{"compare -t topologies/dgx-h100.yaml --threshold abc", "--threshold: expected a percentage"},
             Case{"compare -t topologies/dgx-h100.yaml --format xml", "--format: expected one of table, json, csv"},
             Case{"compare -t topologies/dgx-h100.yaml --trace workloads/samples/tp-decode-8gpu.yaml --op allreduce",
                  "--op: expected no collective options with --trace"},
             Case{"compare -t topologies/dgx-h100.yaml --trace workloads/samples/tp-decode-8gpu.yaml --b-algo x.xml",
                  "--b-algo: expected an algorithm name for a replay"},
             Case{"compare -t topologies/dgx-h100.yaml --b-algo nosuch --sizes 8", "--b-algo: expected one of ring, tree"},
             Case{"compare -t topologies/cluster-h100-2n.yaml --b-set fabrics.ib.oversubscriptio=2:1 --sizes 8",
                  "--set #1 'fabrics.ib.oversubscriptio=2:1': "},
         }) {
        INFO(c.args);
        auto r = run_cli(c.args);
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK_THAT(r.err, Catch::Contains(c.message));
    }
}
