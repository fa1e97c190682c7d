#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;

namespace {
// Two GPUs behind one PCIe Gen3 x16 switch, its uplink to the CPU: traffic
// between the GPUs turns in the switch, so it crosses gpu0-pcie0 and
// gpu1-pcie0 and never the uplink.
constexpr const char* kTwoGpusOneSwitch = R"(name: two-gpus-one-switch
devices:
  - {name: gpu0, kind: gpu, arch: volta, memory_bandwidth: 900GB/s}
  - {name: gpu1, kind: gpu, arch: volta, memory_bandwidth: 900GB/s}
  - {name: pcie0, kind: pcie_switch, latency: 150ns}
  - {name: cpu0, kind: root_complex, latency: 300ns}
links:
  - {a: gpu0, b: pcie0, kind: pcie, gen: 3, lanes: 16, latency: 50ns}
  - {a: gpu1, b: pcie0, kind: pcie, gen: 3, lanes: 16, latency: 50ns}
  - {a: pcie0, b: cpu0, kind: pcie, gen: 3, lanes: 16, latency: 50ns}
)";

// The topology above as a file, removed at the end of the test.
struct TopologyFile {
    std::string path = "/tmp/collsim-links-test-" + std::to_string(::getpid()) + ".yaml";
    TopologyFile() { std::ofstream(path) << kTwoGpusOneSwitch; }
    ~TopologyFile() { std::remove(path.c_str()); }
};

// A Gen3 x16 direction as simulated: 15.75 GB/s raw at NCCL's rating of it,
// 12 GB/s (sim/model/link_efficiency.cpp).
constexpr double kSimulatedPcieGBps = 12.0;
}  // namespace

TEST_CASE("coll --links names the link directions a hand-built topology forces traffic through") {
    const TopologyFile topo;
    const std::string coll = "coll -t " + topo.path + " --algo ring --proto simple --sizes 1M --format json ";

    SECTION("allreduce: each GPU's ring send crosses its switch link both ways, the collective's wire bytes each") {
        // Ring AllReduce over 2 ranks: each rank sends S/2 in the reduce-scatter
        // and S/2 in the all-gather; Simple puts no overhead on the wire.
        auto r = run_cli(coll + "--links 10");
        REQUIRE(r.exit_code == 0);
        const auto row = nlohmann::json::parse(r.out)["rows"][0];
        const auto links = row["links"];
        REQUIRE(links.size() == 4);  // the uplink carried nothing
        // Equal bytes: in link order, each link's a->b before its b->a.
        const char* names[] = {"gpu0->pcie0", "pcie0->gpu0", "gpu1->pcie0", "pcie0->gpu1"};
        for (std::size_t k = 0; k < 4; ++k) {
            INFO(k);
            CHECK(links[k]["link"] == names[k]);
            CHECK(links[k]["bytes"] == 1048576);
            CHECK(links[k]["flows"] == 1);
            const double average = links[k]["average_GBps"];
            CHECK(average == Approx(1048576.0 / row["time_us"].get<double>() / 1e3));
            CHECK(links[k]["utilisation"].get<double>() == Approx(average / kSimulatedPcieGBps).epsilon(1e-3));
        }
    }
    SECTION("broadcast: only the root's way out and the peer's way in") {
        auto r = run_cli(coll + "--op broadcast --links 10");
        REQUIRE(r.exit_code == 0);
        const auto links = nlohmann::json::parse(r.out)["rows"][0]["links"];
        REQUIRE(links.size() == 2);
        CHECK(links[0]["link"] == "gpu0->pcie0");
        CHECK(links[1]["link"] == "pcie0->gpu1");
        CHECK(links[0]["bytes"] == 1048576);
        CHECK(links[1]["bytes"] == 1048576);
    }
    SECTION("two channels over the same links: the same bytes, two flows at once on each") {
        auto r = run_cli(coll + "--channels 2");
        REQUIRE(r.exit_code == 0);
        const auto links = nlohmann::json::parse(r.out)["rows"][0]["links"];
        REQUIRE(links.size() == 4);
        for (const auto& l : links) {
            CHECK(l["bytes"] == 1048576);
            CHECK(l["flows"] == 2);
        }
    }
    SECTION("--links N keeps the N busiest, ties by link id") {
        auto r = run_cli(coll + "--links 1");
        REQUIRE(r.exit_code == 0);
        const auto links = nlohmann::json::parse(r.out)["rows"][0]["links"];
        REQUIRE(links.size() == 1);
        CHECK(links[0]["link"] == "gpu0->pcie0");
        for (const char* k : {"link", "bytes", "average_GBps", "utilisation", "flows"}) CHECK(links[0].contains(k));
    }
}

TEST_CASE("coll's table lists each size's busiest links after the table, as comments") {
    const TopologyFile topo;
    auto r = run_cli("coll -t " + topo.path + " --algo ring --proto simple --sizes 1M,4M");
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("# busiest links at 1048576 B:\n#   gpu0->pcie0        1048576 B"));
    CHECK_THAT(r.out, Catch::Contains("# busiest links at 4194304 B:\n#   gpu0->pcie0        4194304 B"));
    CHECK_THAT(r.out, Catch::Contains("%  1 flow\n"));
    // The default is replay's: ten, of which four carried anything here.
    std::size_t lines = 0;
    for (std::size_t pos = 0; (pos = r.out.find("%  1 flow\n", pos)) != std::string::npos; ++pos) ++lines;
    CHECK(lines == 8);
}

TEST_CASE("coll --links 0 reports no links") {
    const TopologyFile topo;
    const std::string coll = "coll -t " + topo.path + " --sizes 1M --links 0";
    auto table = run_cli(coll);
    REQUIRE(table.exit_code == 0);
    CHECK_THAT(table.out, !Catch::Contains("busiest"));
    CHECK_THAT(table.out, !Catch::Contains("->"));
    auto json = run_cli(coll + " --format json");
    REQUIRE(json.exit_code == 0);
    CHECK_FALSE(nlohmann::json::parse(json.out)["rows"][0].contains("links"));
}

TEST_CASE("coll reports links only for times from the flow simulation") {
    const TopologyFile topo;
    auto r = run_cli("coll -t " + topo.path + " --sizes 1M --model analytical --format json");
    REQUIRE(r.exit_code == 0);
    CHECK_FALSE(nlohmann::json::parse(r.out)["rows"][0].contains("links"));
    auto csv = run_cli("coll -t " + topo.path + " --sizes 1M --format csv");
    REQUIRE(csv.exit_code == 0);
    CHECK_THAT(csv.out, !Catch::Contains("->"));
}

TEST_CASE("coll --links below zero is bad input naming the option") {
    auto r = run_cli("coll --topology topologies/dgx-h100.yaml --sizes 1M --links -1");
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains("--links: expected 0 or more, found '-1'"));
}
