#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "sim/faults/fault_plan.hpp"
#include "sim/hw/topology_loader.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/input_error.hpp"

using namespace collsim;
using collsim::test::run_cli;

namespace {
const std::string kTwoNodes = "coll -t tests/data/faults/two-nodes.yaml ";

nlohmann::json rows(const std::string& args) {
    auto r = run_cli(args + " --format json");
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out)["rows"];
}

std::string plan_error(const std::string& yaml) {
    const Topology t = load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/tests/data/faults/two-nodes.yaml");
    return test::input_error_of([&] { parse_fault_plan(yaml, "f.yaml", t); });
}
}  // namespace

TEST_CASE("a link at half bandwidth doubles a bandwidth-bound ring and leaves small messages alone") {
    const std::string base = "coll -t topologies/dgx-h100.yaml --algo ring --sizes 8,1K,256M,1G";
    auto healthy = rows(base), slow = rows(base + " --faults tests/data/faults/gpu3-half.yaml");
    for (std::size_t i = 0; i < healthy.size(); ++i) {
        const double ratio = slow[i]["time_us"].get<double>() / healthy[i]["time_us"].get<double>();
        INFO("size " << healthy[i]["size_bytes"] << " ratio " << ratio);
        if (healthy[i]["size_bytes"].get<int64_t>() >= (int64_t{256} << 20)) {
            CHECK(ratio == Approx(2.0).epsilon(0.05));
        } else {
            CHECK(ratio < 1.02);
        }
    }
}

TEST_CASE("a NIC that goes down makes the AllReduce hang, and the report names it and the waiting ranks") {
    auto r = run_cli(kTwoNodes + "--sizes 1M --faults tests/data/faults/nic-down.yaml --format json");
    REQUIRE(r.exit_code == 0);
    auto hang = nlohmann::json::parse(r.out)["rows"][0]["hang"];
    CHECK(hang["timed_out"] == false);
    CHECK(hang["waiting_ranks"] == nlohmann::json::array({0, 1, 2, 3}));
    CHECK(hang["steps_done"].get<int>() < hang["steps_total"].get<int>());
    const std::string dead = hang["dead_links"].dump();
    CHECK_THAT(dead, Catch::Contains("n0.nic0->leaf"));
    auto fail = run_cli(kTwoNodes + "--sizes 1M --faults tests/data/faults/nic-down.yaml --fail-on-hang");
    CHECK(fail.exit_code == 1);
    CHECK_THAT(fail.out, Catch::Contains("HANG: no progress possible"));
}

TEST_CASE("a link down for a while, or flapping, slows the collective without an error") {
    auto healthy = rows(kTwoNodes + "--sizes 64M");
    auto outage = rows(kTwoNodes + "--sizes 64M --faults tests/data/faults/node0-nics-down-1ms.yaml");
    auto flap = rows(kTwoNodes + "--sizes 64M --faults tests/data/faults/leaf-flap.yaml");
    CHECK_FALSE(outage[0].contains("hang"));
    CHECK_FALSE(flap[0].contains("hang"));
    CHECK(outage[0]["time_us"].get<double>() > healthy[0]["time_us"].get<double>() + 500);
    CHECK(flap[0]["time_us"].get<double>() > 1.5 * healthy[0]["time_us"].get<double>());
}

TEST_CASE("the watchdog turns a crawl into a hang report") {
    auto r = run_cli(kTwoNodes + "--sizes 1G --timeout 1ms --format json");
    REQUIRE(r.exit_code == 0);
    auto hang = nlohmann::json::parse(r.out)["rows"][0]["hang"];
    CHECK(hang["timed_out"] == true);
    CHECK(hang["at_us"] == 1000.0);
}

TEST_CASE("the same faults give byte-identical reports") {
    const std::string args = kTwoNodes + "--sizes 1K:16M --faults tests/data/faults/leaf-flap.yaml --format json";
    CHECK(run_cli(args).out == run_cli(args).out);
}

TEST_CASE("fault files are checked, and every error is located") {
    CHECK_THAT(plan_error("faults:\n  - {kind: melt, target: leaf}\n"),
               Catch::Contains("f.yaml:2:12: faults[0].kind: expected one of down, degrade, flap, slow, pause, straggler"));
    CHECK_THAT(plan_error("faults:\n  - {kind: down, target: \"spine*\"}\n"),
               Catch::Contains("faults[0].target: expected a device name or link A--B in the topology (globs allowed), "
                               "found 'spine*', which matches nothing in two-nodes"));
    CHECK_THAT(plan_error("faults:\n  - {kind: down, target: \"leaf--spine\"}\n"),
               Catch::Contains("found 'leaf--spine', which matches nothing"));
    CHECK_THAT(plan_error("faults:\n  - {kind: degrade, target: leaf}\n"),
               Catch::Contains("faults[0]: expected a degrade with bandwidth (a factor) and/or latency (added)"));
    CHECK_THAT(plan_error("faults:\n  - {kind: degrade, target: leaf, bandwidth: 1.5}\n"),
               Catch::Contains("faults[0].bandwidth: expected a bandwidth factor in (0, 1], like 0.5, found '1.5'"));
    // nan fails every range (it once passed them all and hung or crashed the simulation).
    CHECK_THAT(plan_error("faults:\n  - {kind: degrade, target: leaf, bandwidth: nan}\n"),
               Catch::Contains("faults[0].bandwidth: expected a bandwidth factor in (0, 1], like 0.5, found 'nan'"));
    CHECK_THAT(plan_error("faults:\n  - {kind: straggler, target: \"n*.gpu*\", p: nan, min: 1.5, max: 2}\n"),
               Catch::Contains("faults[0].p: expected a probability in (0, 1], found 'nan'"));
    CHECK_THAT(plan_error("faults:\n  - {kind: flap, target: leaf, period: 1ms, duty: 1}\n"),
               Catch::Contains("faults[0].duty: expected the share of each period the link is up, in (0, 1)"));
    CHECK_THAT(plan_error("faults:\n  - {kind: flap, target: leaf}\n"),
               Catch::Contains("faults[0].period: expected a time like '600ns' (required)"));
    CHECK_THAT(plan_error("faults:\n  - {kind: slow, target: \"n0.gpu0--n0.nvswitch\", factor: 2}\n"),
               Catch::Contains("faults[0].target: expected GPU names for a compute fault"));
    CHECK_THAT(plan_error("faults:\n  - {kind: straggler, target: \"n*.gpu*\", p: 0.05, min: 1.5, max: 1.2}\n"),
               Catch::Contains("faults[0].max: expected a factor no smaller than min (1.5)"));
    CHECK_THAT(plan_error("faults:\n  - {kind: down, target: leaf, when: now}\n"),
               Catch::Contains("faults[0].when: expected one of the keys"));
    CHECK_THAT(plan_error("fault: []\n"), Catch::Contains("faults file.fault: expected one of the keys faults"));
    auto r = run_cli(kTwoNodes + "--sizes 1M --faults tests/data/faults/compute.yaml");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("tests/data/faults/compute.yaml:2:5: kind: expected a link fault"));
}

TEST_CASE("globs match names as a shell does") {
    CHECK(glob_match("node1*.nic*", "node17.nic3"));
    CHECK(glob_match("gpu?", "gpu3"));
    CHECK_FALSE(glob_match("gpu?", "gpu31"));
    CHECK(glob_match("*", ""));
    CHECK_FALSE(glob_match("leaf3", "leaf31"));
}
