#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;

TEST_CASE("topo check accepts a valid file and prints a one-line summary") {
    auto r = run_cli("topo check topologies/dgx-h100.yaml");
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(r.out == "topologies/dgx-h100.yaml: ok: dgx-h100 (8 GPUs, 27 devices, 33 links)\n");
    auto j = nlohmann::json::parse(run_cli("topo check --format json topologies/dgx-h100.yaml").out);
    CHECK(j["valid"] == true);
    CHECK(j["gpus"] == 8);
}

TEST_CASE("topo show JSON has the stable keys and is byte-identical across runs") {
    const std::string args = "topo show --format json --seed 3 topologies/cluster-h100-16n.yaml";
    auto a = run_cli(args), b = run_cli(args);
    REQUIRE(a.exit_code == 0);
    CHECK(a.out == b.out);
    auto j = nlohmann::json::parse(a.out);
    for (const char* k : {"name", "gpus", "devices", "links", "bisection_bandwidth_GBps", "diameter_hops"})
        CHECK(j.contains(k));
    // Per GPU: 450 GB/s NVLink, Gen5 x16 PCIe, one 400 Gb/s NIC's share.
    CHECK(j["injection_GBps"]["nvlink"] == Approx(450));
    CHECK(j["injection_GBps"]["pcie"] == Approx(63.015384615));
    CHECK(j["injection_GBps"]["network"] == Approx(50));
    CHECK(j["fabrics"][0]["kind"] == "rail_fat_tree");
    CHECK(j["fabrics"][0]["tiers"][1]["switches"] == 4);
}

TEST_CASE("topo show tells the file's oversubscription from the built one where leaves are part full") {
    // 16 NICs on 8 rail leaves of 32 down ports each: 1:1 per switch, 1:16 in bandwidth as built.
    auto table = run_cli("topo show topologies/cluster-h100-2n.yaml");
    REQUIRE(table.exit_code == 0);
    CHECK_THAT(table.out, Catch::Contains("oversubscription 0.06:1 as built (1:1 in the file; 16 of 256 down ports used)"));
    auto json = run_cli("topo show --format json topologies/cluster-h100-2n.yaml");
    REQUIRE(json.exit_code == 0);
    const auto leaf = nlohmann::json::parse(json.out)["fabrics"][0]["tiers"][0];
    CHECK(leaf["configured_oversubscription"] == "1:1");
    CHECK(leaf["down_ports_used"] == 16);
    CHECK(leaf["down_ports"] == 256);
    CHECK(nlohmann::json::parse(json.out)["fabrics"][0]["tiers"][1]["configured_oversubscription"].is_null());
}

TEST_CASE("topo show prints a table and CSV") {
    auto table = run_cli("topo show topologies/cluster-h100-128n-2to1.yaml");
    REQUIRE(table.exit_code == 0);
    CHECK_THAT(table.out, Catch::Contains("bisection bandwidth   12800.00 GB/s"));
    CHECK_THAT(table.out, Catch::Contains("oversubscription 2.00:1\n"));
    CHECK_THAT(table.out, Catch::Contains("diameter              8 hops"));
    auto csv = run_cli("topo show --format csv topologies/dgx-h100.yaml");
    CHECK_THAT(csv.out, Catch::StartsWith("section,key,value\n"));
    CHECK_THAT(csv.out, Catch::Contains("devices,gpu,8\n"));
}

TEST_CASE("topo dot draws every device, or one vertex per node instance with --collapse") {
    auto full = run_cli("topo dot topologies/cluster-h100-2n.yaml");
    REQUIRE(full.exit_code == 0);
    CHECK_THAT(full.out, Catch::StartsWith("graph \"cluster-h100-2n\" {"));
    CHECK_THAT(full.out, Catch::Contains("\"node1.gpu3\" -- \"node1.nvswitch\""));
    auto collapsed = run_cli("topo dot --collapse topologies/cluster-h100-2n.yaml");
    REQUIRE(collapsed.exit_code == 0);
    CHECK_THAT(collapsed.out, Catch::Contains("\"node0\" [shape=box3d"));
    CHECK(collapsed.out.find("node0.gpu0") == std::string::npos);
    // node0's 8 NICs meet the 8 rail leaves once each.
    CHECK_THAT(collapsed.out, Catch::Contains("\"ib.rail3.leaf0\" -- \"node0\" [label=\"network 50GB/s\"]"));
    CHECK(collapsed.out.size() < full.out.size());
}

TEST_CASE("topo commands reject bad input with exit code 2") {
    auto fmt = run_cli("topo show --format yaml topologies/dgx-h100.yaml");
    CHECK(fmt.exit_code == 2);
    CHECK(fmt.err == "--format: expected one of table, json, csv, found 'yaml'\n");
    auto missing = run_cli("topo check topologies/no-such-file.yaml");
    CHECK(missing.exit_code == 2);
    CHECK(missing.err == "topologies/no-such-file.yaml: file: expected a readable file, found it cannot be opened\n");
    CHECK(run_cli("topo").exit_code == 2);
}

TEST_CASE("coll takes a routing policy") {
    auto bad = run_cli("coll --topology topologies/dgx-h100.yaml --routing random --sizes 8");
    CHECK(bad.exit_code == 2);
    CHECK(bad.err == "--routing: expected one of ecmp, single, adaptive, found 'random'\n");
    for (const char* mode : {"ecmp", "single", "adaptive"}) {
        auto r = run_cli(std::string("coll --topology topologies/cluster-h100-2n.yaml --sizes 1M --routing ") + mode);
        CHECK(r.exit_code == 0);
    }
}
