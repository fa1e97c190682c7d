#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"
#include "sim/faults/diagnose.hpp"
#include "sim/faults/replay_timings.hpp"
#include "sim/hw/topology_loader.hpp"
#include "tests/support/input_error.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;

namespace {
// A synchronous data-parallel job: every step each rank computes for 10 ms
// (1% noise), then all enter one AllReduce that ends 2 ms after the last
// arrival. The straggler, in a step with probability p, computes `slowdown`
// times longer. Every rank sees the same exit, so no single rank's log shows
// who was slow.
std::vector<RankTiming> synthetic_job(int ranks, int steps, uint64_t seed, int straggler, double p, double slowdown) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, 0.01);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    std::vector<RankTiming> out;
    double t0 = 0;
    for (int s = 0; s < steps; ++s) {
        std::vector<double> enter(static_cast<std::size_t>(ranks));
        double last = 0;
        for (int r = 0; r < ranks; ++r) {
            double compute = 10000.0 * (1.0 + noise(rng));
            if (r == straggler && coin(rng) < p) compute *= slowdown;
            enter[static_cast<std::size_t>(r)] = t0 + compute;
            last = std::max(last, t0 + compute);
        }
        const double end = last + 2000.0;
        for (int r = 0; r < ranks; ++r) out.push_back(RankTiming{r, s, enter[static_cast<std::size_t>(r)], end});
        t0 = end;
    }
    return out;
}
}  // namespace

TEST_CASE("diagnose finds an intermittent straggler among 1,024 ranks with precision and recall of at least 0.9") {
    // p = 0.05 per step, 1.3x slowdown, 200 steps, 20 seeds (issue 7).
    int planted = 0, found = 0, named = 0;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        const int straggler = static_cast<int>((seed * 7919) % 1024);
        const Diagnosis d = diagnose(synthetic_job(1024, 200, seed, straggler, 0.05, 1.3), nullptr);
        ++planted;
        named += static_cast<int>(d.culprits.size());
        for (const auto& s : d.culprits) found += s.rank == straggler;
    }
    const double precision = named ? static_cast<double>(found) / named : 0.0;
    const double recall = static_cast<double>(found) / planted;
    CHECK(precision >= 0.9);
    CHECK(recall >= 0.9);
}

TEST_CASE("diagnose says no culprit on a fault-free run") {
    for (uint64_t seed = 1; seed <= 5; ++seed) {
        const Diagnosis d = diagnose(synthetic_job(1024, 200, seed, -1, 0.0, 1.0), nullptr);
        CHECK(d.culprits.empty());
        CHECK_THAT(d.verdict, Catch::StartsWith("no culprit"));
    }
}

TEST_CASE("a consistently slow rank is named with full confidence and its evidence") {
    const Diagnosis d = diagnose(synthetic_job(64, 50, 3, 17, 1.0, 1.1), nullptr);
    REQUIRE(d.culprits.size() == 1);
    CHECK(d.culprits[0].rank == 17);
    CHECK(d.culprits[0].late_collectives == 50);
    CHECK(d.culprits[0].confidence == Approx(1.0));
    CHECK(d.culprits[0].mean_lateness_us == Approx(1000.0).epsilon(0.1));
    CHECK_THAT(d.culprits[0].evidence, Catch::Contains("late at 50 of 50 collectives"));
}

TEST_CASE("a timing file with a rank's row missing is diagnosed as incomplete, naming the rank and collective") {
    // Issue 24: one row deleted and the diagnosis read as if the job were complete.
    std::vector<RankTiming> rows = synthetic_job(64, 50, 3, 17, 1.0, 1.1);
    CHECK(diagnose(rows, nullptr).missing.empty());
    rows.erase(std::find_if(rows.begin(), rows.end(), [](const RankTiming& t) { return t.rank == 9 && t.collective == 7; }));
    const Diagnosis d = diagnose(rows, nullptr);
    REQUIRE(d.missing.size() == 1);
    CHECK(d.missing[0].collective == 7);
    CHECK(d.missing[0].ranks == std::vector<int>{9});
    CHECK(d.missing_rows == 1);
    CHECK_THAT(d.verdict, Catch::StartsWith("incomplete timings: 1 row(s) missing, first rank 9 at collective 7"));
    REQUIRE(d.culprits.size() == 1);  // the rows there are still name the straggler
    CHECK(d.culprits[0].rank == 17);
}

TEST_CASE("named collectives are read as ids, and a row missing from one is named by it") {
    const auto rows = read_rank_timings_csv("rank,collective,enter_us,exit_us\n0,allreduce_1,1,5\n1,allreduce_1,1,5\n"
                                            "0,allreduce_2,6,9\n1,allreduce_2,6,9\n2,allreduce_1,1,5\n",
                                            "t.csv");
    REQUIRE(rows.size() == 5);
    CHECK(rows[0].collective == rows[1].collective);
    CHECK(rows[0].collective != rows[2].collective);
    CHECK(rows[2].name == "allreduce_2");
    const Diagnosis d = diagnose(rows, nullptr);
    CHECK(d.collectives == 2);
    REQUIRE(d.missing.size() == 1);
    CHECK(d.missing[0].name == "allreduce_2");
    CHECK(d.missing[0].ranks == std::vector<int>{2});
    CHECK_THAT(d.verdict, Catch::StartsWith("incomplete timings: 1 row(s) missing, first rank 2 at collective allreduce_2"));
}

TEST_CASE("an error repeated on many rows of a timing file is reported once, with a count") {
    std::string csv = "rank,collective,enter_us,exit_us\n";
    for (int i = 0; i < 500; ++i) csv += fmt::format("{},0,{}ms,9\n", i, i);
    const std::string msg = test::input_error_of([&] { read_rank_timings_csv(csv, "t.csv"); });
    CHECK_THAT(msg, Catch::Contains("t.csv:2:5: enter_us: expected a time in microseconds, found '0ms' (and 499 more "
                                    "row(s) like it, the last at line 501)"));
    CHECK(std::count(msg.begin(), msg.end(), '\n') < 3);
}

TEST_CASE("stragglers that share a NIC point at the NIC") {
    // 16 GPUs, four behind each PCIe switch and NIC, all NICs on one leaf.
    std::string devices = "devices:\n  - {name: leaf, kind: switch}\n", links = "links:\n";
    for (int n = 0; n < 4; ++n) {
        devices += fmt::format("  - {{name: sw{0}, kind: pcie_switch}}\n  - {{name: nic{0}, kind: nic}}\n", n);
        links += fmt::format("  - {{a: nic{0}, b: sw{0}, kind: pcie, gen: 4, lanes: 16, latency: 50ns}}\n"
                             "  - {{a: nic{0}, b: leaf, kind: network, bandwidth: 200Gb/s, latency: 100ns}}\n", n);
    }
    for (int g = 0; g < 16; ++g) {
        devices += fmt::format("  - {{name: g{}, kind: gpu, memory_bandwidth: 1TB/s}}\n", g);
        links += fmt::format("  - {{a: g{}, b: sw{}, kind: pcie, gen: 4, lanes: 16, latency: 50ns}}\n", g, g / 4);
    }
    const Topology t = parse_topology("name: four-nics\n" + devices + links, "t.yaml");
    auto timings = synthetic_job(16, 100, 5, -1, 0.0, 1.0);
    // Ranks 4-7 (all behind nic1) arrive 3 ms late in every tenth step.
    for (auto& row : timings)
        if (row.rank >= 4 && row.rank < 8 && row.collective % 10 == 0) row.enter_us += 3000;
    const Diagnosis d = diagnose(timings, &t);
    CHECK(d.culprits.size() == 4);
    REQUIRE(d.shared.size() == 1);  // the leaf also serves punctual ranks: not suspect
    CHECK(d.shared[0].device == "nic1");
    CHECK(d.shared[0].ranks == std::vector<int>{4, 5, 6, 7});
}

TEST_CASE("rank timing CSV errors name the line, column and field") {
    struct Case {
        std::string text, expect;
    };
    for (const Case& c : {
             Case{"rank,collective,enter_us\n0,1,2\n",
                  "t.csv:1:1: header: expected a column named exit_us"},
             Case{"rank,collective,enter_us,exit_us\n0,1,2.5,9\n1,1.5,2,9\n",
                  "t.csv:3:3: collective: expected a non-negative integer or a name, found '1.5'"},
             Case{"rank,collective,enter_us,exit_us\n0,1,20,9\n", "t.csv:2:8: exit_us: expected a time no earlier"},
             Case{"rank,collective,enter_us,exit_us\n0,1,20\n", "t.csv:2:7: exit_us: expected a value in every column"},
             Case{"rank,collective,enter_us,exit_us\n-1,1,2,3\n", "t.csv:2:1: rank: expected a non-negative integer"},
             Case{"rank,collective,enter_us,exit_us\n0,1,2,30", "t.csv:2:9: row: expected a line break after the last row"},
             Case{"rank,collective,enter_us,exit_us\n99999999999999999999,1,2,3\n",
                  "t.csv:2:1: rank: expected a non-negative integer below 16777216, found '99999999999999999999'"},
             Case{"", "header: expected a header row, found an empty file"},
             Case{"rank,collective,enter_us,exit_us\n", "rows: expected at least one timing row, found none"},
         }) {
        INFO(c.text);
        CHECK_THAT(test::input_error_of([&] { read_rank_timings_csv(c.text, "t.csv"); }), Catch::Contains(c.expect));
    }
    auto rows = read_rank_timings_csv("# from our logs\nexit_us,enter_us,rank,collective\n5.5,1.25,3,9\n", "t.csv");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].rank == 3);
    CHECK(rows[0].collective == 9);
    CHECK(rows[0].enter_us == 1.25);
    CHECK(rows[0].exit_us == 5.5);
}

TEST_CASE("collsim diagnose names the late rank and rejects a broken CSV") {
    auto r = collsim::test::run_cli("diagnose tests/data/timings/late-rank5.csv --format json");
    REQUIRE(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["culprits"].size() == 1);
    CHECK(j["culprits"][0]["rank"] == 5);
    CHECK(j["culprits"][0]["late_collectives"] == 3);
    CHECK(j["collectives"] == 12);
    CHECK(j["complete"] == true);
    CHECK(j["missing"].empty());
    auto table = collsim::test::run_cli("diagnose tests/data/timings/late-rank5.csv");
    CHECK_THAT(table.out, Catch::Contains("most likely rank 5"));
    auto bad = collsim::test::run_cli("diagnose tests/data/timings/bad-time.csv");
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.err, Catch::Contains("tests/data/timings/bad-time.csv:3:5: enter_us: expected a time in microseconds, found 'ten'"));
}

TEST_CASE("diagnose refuses a topology with fewer GPUs than the timings have ranks") {
    // late-rank5.csv times 8 ranks; pcie-gen3-2gpu.yaml has 2 GPUs (issue 24: it was accepted).
    auto r = collsim::test::run_cli("diagnose tests/data/timings/late-rank5.csv --topology topologies/pcie-gen3-2gpu.yaml");
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains("--topology: expected a topology with a GPU for every rank of "
                                      "tests/data/timings/late-rank5.csv (ranks 0 to 7)"));
    CHECK_THAT(r.err, Catch::Contains("with 2 GPUs"));
    CHECK(collsim::test::run_cli("diagnose tests/data/timings/late-rank5.csv --topology topologies/dgx-h100.yaml")
              .exit_code == 0);
}

TEST_CASE("a replay report with a number no double holds is bad input, not an internal error") {
    CHECK_THAT(test::input_error_of([] { read_replay_timings(R"({"collectives": [{"step": 1e400}]})", "r.json"); }),
               Catch::Contains("r.json:1:27: json: expected numbers within a double's range, found '1e400'"));
    CHECK_THAT(test::input_error_of([] { read_replay_timings(R"({"collectives": [)", "r.json"); }),
               Catch::Contains("r.json:1:18: json: expected a replay's JSON report, found malformed JSON"));
}

TEST_CASE("a replay report's field errors say where the field is") {
    const std::string report = "{\"collectives\": [\n  {\"members\": [0, 1], \"arrivals_us\": [1],\n"
                               "   \"start_us\": 0, \"latency_us\": 2}]}";
    CHECK_THAT(test::input_error_of([&] { read_replay_timings(report, "r.json"); }),
               Catch::Contains("r.json:2:38: collectives[0].arrivals_us: expected 2 times, one per member, found 1"));
    CHECK_THAT(test::input_error_of([] { read_replay_timings("{\"collectives\": [{\"members\": []}]}", "r.json"); }),
               Catch::Contains("r.json:1:18: collectives[0].arrivals_us: expected one arrival time per member"));
}
