// The suite reader's messages, and how a comparison judges each metric.
#include <catch2/catch.hpp>

#include "sim/regress/comparison.hpp"
#include "sim/regress/suite.hpp"
#include "sim/regress/tolerance.hpp"
#include "tests/support/input_error.hpp"

using namespace collsim;

namespace {
std::string suite_error(const std::string& yaml) {
    return test::input_error_of([&] { parse_suite(yaml, "dir/s.yaml"); });
}
}  // namespace

TEST_CASE("a suite's entries get stable names and paths relative to the suite") {
    const Suite s = parse_suite(R"(entries:
  - {topology: t.yaml, op: allreduce, algo: ring, proto: simple, sizes: [8, 1M], tolerance: 5%}
  - {topology: ../t.yaml, trace: w.yaml, steps: 2}
  - {name: mine, topology: t.yaml, algo_file: a.xml, sizes: [1M]}
  - {topology: t.yaml, op: allgather, sizes: [1M], set: [nodes.count=4, fabrics.ib.oversubscription=2:1], ranks: 16}
)", "dir/s.yaml");
    REQUIRE(s.entries.size() == 4);
    CHECK(s.entries[3].name == "t[nodes.count=4,fabrics.ib.oversubscription=2:1]:16/allgather/auto/auto");
    CHECK(s.entries[3].settings.size() == 2);
    const Suite p = parse_suite("entries:\n  - {topology: t.yaml, plan: {model: cards/m.yaml, tp: 8, seq: 2048}}\n", "dir/s.yaml");
    CHECK(p.entries[0].name == "t/plan/m/tp=8,seq=2048");
    CHECK(p.entries[0].plan_card.resolved == "dir/cards/m.yaml");
    CHECK(p.entries[0].inputs().size() == 2);
    CHECK(s.entries[0].name == "t/allreduce/ring/simple");
    CHECK(s.entries[0].topology.written == "t.yaml");
    CHECK(s.entries[0].topology.resolved == "dir/t.yaml");
    CHECK(*s.entries[0].tolerance == Approx(0.05));
    CHECK(s.entries[1].name == "t/replay/w/x2");
    CHECK(s.entries[1].topology.resolved == "t.yaml");
    CHECK(s.entries[2].name == "mine");
    CHECK(s.entries[2].inputs().size() == 2);
}

TEST_CASE("suite errors name the line, the field, what was expected and what was found") {
    CHECK_THAT(suite_error("entries:\n  - {topology: t.yaml, op: allreduce, sizes: [8], colour: red}\n"),
               Catch::Contains("dir/s.yaml:2:51: entries[0].colour: expected one of the keys name, topology"));
    CHECK_THAT(suite_error("entries:\n  - {op: allreduce, sizes: [8]}\n"),
               Catch::Contains("dir/s.yaml:2:5: entries[0].topology: expected a topology file (required)"));
    CHECK_THAT(suite_error("entries:\n  - {topology: t.yaml, op: allsum, sizes: [8]}\n"),
               Catch::Contains("dir/s.yaml:2:28: entries[0].op: expected one of allreduce, allgather"));
    CHECK_THAT(suite_error("entries:\n  - {topology: t.yaml, op: allreduce, algo: rung, sizes: [8]}\n"),
               Catch::Contains("entries[0].algo: expected one of ring"));
    CHECK_THAT(suite_error("entries:\n  - {topology: t.yaml, op: allreduce, sizes: [8], tolerance: 2}\n"),
               Catch::Contains("entries[0].tolerance: expected a percentage like 2% or 0.5%, or 0, found '2'"));
    CHECK_THAT(suite_error("entries:\n  - {topology: t.yaml, trace: w.yaml, sizes: [8]}\n"),
               Catch::Contains("entries[0].sizes: expected no sizes in a replay"));
    CHECK_THAT(suite_error("entries:\n  - {topology: t.yaml, op: allreduce, sizes: []}\n"),
               Catch::Contains("entries[0].sizes: expected at least one size"));
    CHECK_THAT(suite_error("entries:\n  - {topology: t.yaml, op: allreduce, sizes: [8]}\n"
                           "  - {topology: t.yaml, op: allreduce, sizes: [1M]}\n"),
               Catch::Contains("dir/s.yaml:3:5: entries[1].name: expected a name no other entry has"));
    CHECK_THAT(suite_error("model: exact\nentries: []\n"), Catch::Contains("dir/s.yaml:1:8: suite.model"));
    CHECK_THAT(suite_error("entries:\n  - {topology: t.yaml, plan: {model: llama-3-8b, tp: eight}}\n"),
               Catch::Contains("dir/s.yaml:2:54: entries[0].plan.tp: expected an integer, found 'eight'"));
    CHECK_THAT(suite_error("entries:\n  - {topology: t.yaml, plan: {tp: 8}}\n"),
               Catch::Contains("entries[0].plan.model: expected a model card: a name in models/ or a YAML file (required)"));
    CHECK_THAT(suite_error("entries:\n  - {topology: t.yaml, plan: {model: m}, sizes: [8]}\n"),
               Catch::Contains("entries[0].sizes: expected no sizes in a plan entry"));
    CHECK_THAT(suite_error("entries:\n  - {topology: t.yaml, op: allreduce, sizes: [8], set: [nodes.count]}\n"),
               Catch::Contains("dir/s.yaml:2:57: entries[0].set[0]: expected PATH=VALUE, as --set takes it"));
}

TEST_CASE("tolerances are percentages") {
    CHECK(*parse_tolerance("2%") == Approx(0.02));
    CHECK(*parse_tolerance("0.5%") == Approx(0.005));
    CHECK(*parse_tolerance("0") == 0);
    CHECK_FALSE(parse_tolerance("2"));
    CHECK_FALSE(parse_tolerance("-1%"));
    CHECK_FALSE(parse_tolerance("%"));
}

TEST_CASE("a comparison calls longer times and lower bandwidths worse, each entry at its own tolerance") {
    Baseline before, now;
    before.entries = {EntryResult{"a", "auto", false, "", {{"1M time_us", 100}, {"1M busbw_GBps", 50}}, {}},
                      EntryResult{"b", "auto", false, "", {{"1M time_us", 100}}, {}}};
    now.entries = {EntryResult{"a", "auto", false, "", {{"1M time_us", 103}, {"1M busbw_GBps", 48.5}}, {}},
                   EntryResult{"b", "auto", false, "", {{"1M time_us", 103}}, {}, 0.05}};
    const Comparison c = compare_runs(before, now, 0.02);
    REQUIRE(c.entries.size() == 2);
    REQUIRE(c.entries[0].changes.size() == 2);
    CHECK(c.entries[0].changes[0].worse == Approx(0.03));
    CHECK(c.entries[0].changes[1].worse == Approx(0.03));
    CHECK(c.entries[0].regressed());
    CHECK_FALSE(c.entries[1].regressed());  // 3% within its own 5%
    CHECK(c.entries[1].failed(true));       // but not unchanged
    now.entries[0].metrics = {{"1M time_us", 90}, {"1M busbw_GBps", 55}};
    CHECK(compare_runs(before, now, 0.02).entries[0].improved());
}
