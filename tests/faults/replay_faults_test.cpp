// Faults in a replay (tests/data/faults/dp-step.yaml on two-nodes.yaml: a
// synchronous data-parallel step of 3.1 ms of compute and an 8 MiB AllReduce).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "sim/faults/compute_faults.hpp"
#include "sim/faults/straggler_draw.hpp"
#include "sim/hw/topology_loader.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;
using collsim::test::run_cli;
using nlohmann::json;

namespace {
const std::string kReplay = "replay -t tests/data/faults/two-nodes.yaml -w tests/data/faults/dp-step.yaml ";

json replay_json(const std::string& args) {
    auto r = run_cli(kReplay + args + " --format json");
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out);
}
}  // namespace

TEST_CASE("a NIC that goes down during a replay's AllReduce stops it with a hang report naming the NIC and the ranks") {
    const json hang = replay_json("--steps 3 --faults tests/data/faults/n1-nic0-down.yaml")["hang"];
    CHECK(hang["timed_out"] == false);
    CHECK(hang["at_us"].get<double>() > 3050);
    REQUIRE(hang["stuck"].size() == 1);
    CHECK(hang["stuck"][0]["name"] == "grads");
    CHECK(hang["stuck"][0]["step"] == 1);
    CHECK(hang["stuck"][0]["launched"] == true);
    CHECK(hang["stuck"][0]["waiting_ranks"] == json::array({0, 1, 2, 3}));
    CHECK_THAT(hang["dead_links"].dump(), Catch::Contains("n1.nic0->leaf"));
    auto fail = run_cli(kReplay + "--faults tests/data/faults/n1-nic0-down.yaml --fail-on-hang");
    CHECK(fail.exit_code == 1);
    CHECK_THAT(fail.out, Catch::Contains("replay hung at") && Catch::Contains("n1.nic0"));
}

TEST_CASE("one rank 10% slower in compute slows every rank's synchronous step by about that much") {
    const json slow = replay_json("--steps 5 --faults tests/data/faults/gpu1-slow-10pct.yaml");
    const double with = slow["step_times"]["p50_us"], without = slow["baseline_step_times"]["p50_us"];
    // 3.1 ms of compute per step: the slow rank adds 0.31 ms, and every rank waits for it.
    CHECK(with - without == Approx(310).epsilon(0.05));
    for (const json& rank : slow["ranks"]) {
        INFO("rank " << rank["rank"]);
        CHECK(rank["compute_us"].get<double>() + rank["exposed_comm_us"].get<double>() +
                  rank["idle_us"].get<double>() ==
              Approx(5 * with).epsilon(0.001));
    }
    CHECK(slow["throughput_lost_pct"].get<double>() == Approx(100 * (1 - without / with)).epsilon(0.001));
}

TEST_CASE("a pause holds compute for its length, and a pause without end hangs the replay naming the rank") {
    const json paused = replay_json("--steps 3 --faults tests/data/faults/gpu2-pause.yaml");
    CHECK(paused["step_times"]["max_us"].get<double>() - paused["step_times"]["p50_us"].get<double>() ==
          Approx(1000).epsilon(0.01));
    const json hang = replay_json("--steps 3 --faults tests/data/faults/gpu2-pause-forever.yaml")["hang"];
    CHECK(hang["paused_ranks"] == json::array({2}));
    REQUIRE(hang["stuck"].size() == 1);
    CHECK(hang["stuck"][0]["missing_ranks"] == json::array({2}));
    CHECK(hang["stuck"][0]["waiting_ranks"] == json::array({0, 1, 3}));
}

TEST_CASE("the watchdog turns a crawling replay into a hang report") {
    const json hang = replay_json("--faults tests/data/faults/crawl.yaml --timeout 50ms")["hang"];
    CHECK(hang["timed_out"] == true);
    CHECK(hang["at_us"].get<double>() == Approx(50'000));
}

TEST_CASE("intermittent stragglers follow the seed: the same seed gives byte-identical reports") {
    const std::string args = kReplay + "--steps 20 --faults tests/data/faults/straggler.yaml --format json";
    const auto a = run_cli(args + " --seed 7"), b = run_cli(args + " --seed 7"), c = run_cli(args + " --seed 8");
    REQUIRE(a.exit_code == 0);
    CHECK(a.out == b.out);
    CHECK(a.out != c.out);
    // The slow steps are those the draws pick: p = 0.2 at 1.5x on rank 3.
    const Topology topo = load_topology(test::source_path("tests/data/faults/two-nodes.yaml"));
    const FaultPlan plan = load_fault_plan(test::source_path("tests/data/faults/straggler.yaml"), topo);
    const ComputeFaults faults(plan, topo.gpus(), 7);
    const json steps = json::parse(a.out)["step_times"];
    int slow_steps = 0;
    for (int s = 0; s < 20; ++s) slow_steps += faults.straggler_factor(3, s, 0, Time{}) > 1.0;
    CHECK(slow_steps > 0);
    CHECK(slow_steps < 20);
    CHECK(steps["max_us"].get<double>() - steps["p50_us"].get<double>() == Approx(1550).epsilon(0.01));
}

TEST_CASE("the Perfetto trace of a replay with faults has a track for each fault's windows") {
    const std::string out = "/tmp/collsim-faults-perfetto-" + std::to_string(::getpid()) + ".json";
    auto r = run_cli(kReplay + "--steps 2 --faults tests/data/faults/gpu2-pause.yaml --perfetto " + out);
    REQUIRE(r.exit_code == 0);
    std::ifstream in(out);
    const json doc = json::parse(in);
    std::remove(out.c_str());
    int windows = 0;
    for (const json& e : doc["traceEvents"])
        if (e.value("cat", "") == "fault") {
            ++windows;
            CHECK(e["ts"] == 500.0);
            CHECK(e["dur"] == 1000.0);
        }
    CHECK(windows == 1);
}

TEST_CASE("diagnose reads a replay's JSON and finds the planted straggler") {
    const std::string out = "/tmp/collsim-straggler-replay-" + std::to_string(::getpid()) + ".json";
    auto r = run_cli(kReplay + "--steps 20 --seed 7 --faults tests/data/faults/straggler.yaml --format json");
    REQUIRE(r.exit_code == 0);
    std::ofstream(out) << r.out;
    auto d = run_cli("diagnose " + out + " --format json");
    std::remove(out.c_str());
    REQUIRE(d.exit_code == 0);
    const json diagnosis = json::parse(d.out);
    INFO(d.out);
    REQUIRE(!diagnosis["culprits"].empty());
    CHECK(diagnosis["culprits"][0]["rank"] == 3);
    auto bad = run_cli("diagnose tests/data/faults/straggler.yaml");
    CHECK(bad.exit_code == 2);
}

TEST_CASE("a straggler on a NIC slows exactly the collectives its draws strike") {
    const json slow = replay_json("--steps 20 --seed 3 --faults tests/data/faults/nic-straggler.yaml");
    const Topology topo = load_topology(test::source_path("tests/data/faults/two-nodes.yaml"));
    const FaultPlan plan = load_fault_plan(test::source_path("tests/data/faults/nic-straggler.yaml"), topo);
    REQUIRE(plan.faults[0].links.size() == 2);  // the NIC's PCIe and network ports
    double fastest = 1e30;
    for (const json& c : slow["collectives"]) fastest = std::min(fastest, c["latency_us"].get<double>());
    int struck = 0;
    for (std::size_t run = 0; run < slow["collectives"].size(); ++run) {
        const bool hit = straggler_draw(plan.faults[0], 3, 1, {run}) > 1.0;
        struck += hit;
        INFO("collective " << run);
        CHECK((slow["collectives"][run]["latency_us"].get<double>() > 1.5 * fastest) == hit);
    }
    CHECK(struck > 0);
    CHECK(struck < 20);
}
