// The coll options added for every operation and algorithm: communicators,
// roots, models, explain, and the nccl-tests column layout.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;

namespace {
const std::string kCollDgx = "coll --topology topologies/dgx-h100.yaml ";
}

TEST_CASE("coll prints nccl-tests' out-of-place columns") {
    auto r = run_cli(kCollDgx + "--op reduce --root 2 --sizes 1M");
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("#       size         count      type   redop    root     time   algbw   busbw  #wrong"));
    CHECK_THAT(r.out, Catch::Contains("     1048576        262144     float     sum       2"));
    auto b = run_cli(kCollDgx + "--op allgather --sizes 1M");
    REQUIRE(b.exit_code == 0);
    CHECK_THAT(b.out, Catch::Contains("     1048576        262144     float    none      -1"));
}

TEST_CASE("coll --gpus picks the communicator by index, range or name") {
    auto by_index = run_cli(kCollDgx + "--gpus 0,2,4,6 --sizes 1M --format json");
    auto by_name = run_cli(kCollDgx + "--gpus gpu0,gpu2,gpu4,gpu6 --sizes 1M --format json");
    auto first4 = run_cli(kCollDgx + "--gpus 0-3 --sizes 1M --format json");
    REQUIRE(by_index.exit_code == 0);
    REQUIRE(first4.exit_code == 0);
    CHECK(by_index.out == by_name.out);
    CHECK(nlohmann::json::parse(by_index.out)["ranks"] == 4);
    CHECK(nlohmann::json::parse(first4.out)["ranks"] == 4);
}

TEST_CASE("AllGather and AllToAll sizes are whole blocks per rank, as in nccl-tests") {
    auto r = run_cli(kCollDgx + "--op alltoall --ranks 3 --sizes 1000 --format json");
    REQUIRE(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["rows"][0]["count"] == 249);  // 250 floats rounded down to 3 x 83
    CHECK(j["rows"][0]["size_bytes"] == 996);
}

TEST_CASE("the analytical model gives the closed form, and --explain shows both with their terms") {
    auto flow = run_cli(kCollDgx + "--sizes 1G --format json");
    auto closed = run_cli(kCollDgx + "--sizes 1G --format json --model analytical");
    REQUIRE(flow.exit_code == 0);
    REQUIRE(closed.exit_code == 0);
    const double tf = nlohmann::json::parse(flow.out)["rows"][0]["time_us"];
    const double tc = nlohmann::json::parse(closed.out)["rows"][0]["time_us"];
    CHECK(tc == Approx(tf).epsilon(0.02));
    CHECK(nlohmann::json::parse(closed.out)["model"] == "analytical");
    auto e = run_cli(kCollDgx + "--sizes 8,1G --explain --format json");
    REQUIRE(e.exit_code == 0);
    auto row = nlohmann::json::parse(e.out)["rows"][1];
    const double lat = row["latency_us"], bw = row["bandwidth_us"], total = row["analytical_us"];
    CHECK(lat + bw == Approx(total));
    CHECK(row["why"] == "agree (no contention)");
}

TEST_CASE("--explain names the links that carry several flows when the flow is slower") {
    // Eight GPUs behind four PCIe switches under one root complex: in the
    // pairwise AllToAll, both GPUs of a switch exchange with GPUs elsewhere in
    // most rounds, through the one uplink. The closed form times each pair alone.
    auto r = run_cli("coll --topology topologies/pcie-gen4-x16-8gpu.yaml --op alltoall --algo alltoall_pairwise "
                     "--sizes 64M --explain");
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("contention: pcie0->cpu0 carried 2 flows at once"));
    // The direct algorithm's closed form divides every link among all transfers at once: no surprise.
    auto d = run_cli("coll --topology topologies/pcie-gen4-x16-8gpu.yaml --op alltoall --algo alltoall --sizes 64M "
                     "--explain");
    CHECK_THAT(d.out, Catch::Contains("agree (no contention)"));
}

TEST_CASE("coll is deterministic for every algorithm") {
    for (std::string args : {"--op allreduce --algo tree", "--op allreduce --algo rhd --ranks 6",
                             "--op alltoall --algo alltoall_pairwise", "--op broadcast --root 5",
                             "--op allreduce --algo nvls"}) {
        const std::string topo = kCollDgx;
        auto a = run_cli(topo + args + " --sizes 1K:16M --format csv");
        auto b = run_cli(topo + args + " --sizes 1K:16M --format csv");
        INFO(args << "\n" << a.err);
        REQUIRE(a.exit_code == 0);
        CHECK(a.out == b.out);
    }
}

TEST_CASE("bad communicator, root, model and algorithm choices exit 2 and say why") {
    struct Case {
        std::string args, expect;
    };
    for (const Case& c : {
             Case{kCollDgx + "--gpus 0,9", "--gpus: expected GPU names or indices (0 to 7) of topology dgx-h100"},
             Case{kCollDgx + "--gpus 0,nic0", "found 'nic0', a nic"},
             Case{kCollDgx + "--gpus 1,2,1", "--gpus: expected each GPU once, found '1' (gpu1) twice"},
             Case{kCollDgx + "--gpus 0,,1", "found an empty entry in '0,,1'"},
             Case{kCollDgx + "--gpus 0-3 --ranks 4", "--ranks excludes --gpus"},
             Case{kCollDgx + "--op allreduce --root 1", "--root: expected no root: only broadcast and reduce have one"},
             Case{kCollDgx + "--op broadcast --root 8", "--root: expected a rank from 0 to 7, found '8'"},
             Case{kCollDgx + "--model fast", "--model: expected one of auto, flow, fluid, analytical, found 'fast'"},
             Case{"coll -t topologies/pcie-gen4-x16-8gpu.yaml --algo nvls",
                  "nvls needs an nvswitch with in_network_reduction: true"},
             Case{kCollDgx + "--algo hierarchical", "hierarchical needs ranks on at least two servers"},
             Case{kCollDgx + "--algo tree --op allgather", "--op: expected an operation that algorithm 'tree' implements"},
             Case{kCollDgx + "--algo nvls --proto ll",
                  "--proto: expected a protocol that NCCL runs with algorithm 'nvls'"},
         }) {
        INFO(c.args);
        auto r = run_cli(c.args);
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK_THAT(r.err, Catch::Contains(c.expect));
    }
}

TEST_CASE("--explain prints where the tuner's choice changes, at every power of two of the sweep") {
    auto r = run_cli("coll --topology topologies/cluster-h100-2n.yaml --sizes 8,1G --explain --model analytical "
                     "--format json");
    REQUIRE(r.exit_code == 0);
    const auto spans = nlohmann::json::parse(r.out)["tuner_spans"];
    REQUIRE(spans.size() >= 2);  // small and large messages are not run alike on two nodes
    CHECK(spans.front()["from_bytes"] == 8);
    CHECK(spans.back()["to_bytes"] == int64_t{1} << 30);
    for (std::size_t i = 1; i < spans.size(); ++i) {
        CHECK(spans[i]["from_bytes"] == 2 * spans[i - 1]["to_bytes"].get<int64_t>());
        CHECK((spans[i]["algo"] != spans[i - 1]["algo"] || spans[i]["proto"] != spans[i - 1]["proto"]));
    }
    // A fixed algorithm and protocol has no crossovers to show.
    auto fixed = run_cli("coll --topology topologies/cluster-h100-2n.yaml --sizes 8,1G --explain --model analytical "
                         "--algo ring --proto simple --format json");
    REQUIRE(fixed.exit_code == 0);
    CHECK_FALSE(nlohmann::json::parse(fixed.out).contains("tuner_spans"));
}

// A given value that reads like "not given" is an error, never the default
// (issue 24: --ranks 0 and the others ran as if left out).
TEST_CASE("given values that would mean 'default' exit 2: coll, validate and replay") {
    struct Given {
        std::string args, expect;
    };
    const std::string tp = "replay -t topologies/dgx-h100.yaml -w workloads/samples/tp-decode-8gpu.yaml ";
    for (const Given& g : {
             Given{kCollDgx + "--ranks 0", "--ranks: expected 1 to 8"},
             Given{kCollDgx + "--gpus \"\"", "--gpus: expected GPU names or indices"},
             Given{kCollDgx + "--op broadcast --root -1", "--root: expected a rank from 0 to 7, found '-1'"},
             Given{kCollDgx + "--channels 0", "--channels: expected 1 to 64 (leave it out for NCCL's choice), found '0'"},
             Given{"validate --max-bandwidth-error -5", "--max-bandwidth-error: expected a percentage of 0 or more, found '-5'"},
             Given{"validate --max-latency-error -1", "--max-latency-error: expected a percentage of 0 or more, found '-1'"},
             Given{"validate --cross --size-corrections 64M,64K",
                   "--size-corrections: expected boundaries in increasing order, each once"},
             Given{"calibrate --log tests/data/nccl-logs/sample.csv -t topologies/dgx-h100.yaml -o /dev/null "
                   "--size-corrections 1M,1M",
                   "--size-corrections: expected boundaries in increasing order, each once"},
             Given{"validate --data validation/data --log tests/data/nccl-logs/sample.csv -t topologies/dgx-h100.yaml",
                   "--data: expected either --data or --log, not both"},
             Given{tp + "--max-schedule-steps 0", "--max-schedule-steps: expected 1 or more, found '0'"},
             Given{tp + "--algo bogus", "--algo: expected one of ring"},
             Given{tp + "--proto fast", "--proto: expected"},
         }) {
        INFO(g.args);
        auto r = run_cli(g.args);
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK_THAT(r.err, Catch::Contains(g.expect));
    }
    // Left out, they still mean the default.
    CHECK(run_cli(kCollDgx + "--op broadcast --sizes 1M").exit_code == 0);
}
