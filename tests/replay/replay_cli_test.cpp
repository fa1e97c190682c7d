#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;
using collsim::test::slurp;

namespace {
const std::string kReplayDgx = "replay --topology topologies/dgx-h100.yaml ";
}  // namespace

TEST_CASE("replay JSON keeps its stable names") {
    auto r = run_cli(kReplayDgx + "--trace workloads/samples/tp-decode-8gpu.yaml --format json");
    REQUIRE(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out);
    for (const char* k : {"step_time_us", "ranks", "fractions", "collectives", "bubbles", "links"}) CHECK(j.contains(k));
    for (const char* k : {"compute", "exposed_comm", "overlapped_comm", "idle"}) CHECK(j["fractions"].contains(k));
    CHECK(j["ranks"].size() == 8);
    for (const char* k : {"name", "op", "comm", "ranks", "bytes", "algo", "proto", "latency_us", "arrival_skew_us"})
        CHECK(j["collectives"][0].contains(k));
    const double sum = j["fractions"]["compute"].get<double>() + j["fractions"]["exposed_comm"].get<double>() +
                       j["fractions"]["idle"].get<double>();
    CHECK(sum == Approx(1.0));
}

TEST_CASE("the same trace and seed give byte-identical JSON and Perfetto output") {
    const std::string base = "/tmp/collsim-perfetto-" + std::to_string(::getpid());
    const std::string args = kReplayDgx + "--trace workloads/samples/pp-1f1b-4stage.yaml --format json --seed 3 --perfetto ";
    auto a = run_cli(args + base + "-a.json");
    auto b = run_cli(args + base + "-b.json");
    REQUIRE(a.exit_code == 0);
    CHECK(a.out == b.out);
    const std::string pa = slurp(base + "-a.json");
    CHECK(pa == slurp(base + "-b.json"));
    // The Perfetto file: one process per rank, a thread per stream, a links process with counters.
    auto p = nlohmann::json::parse(pa);
    int ranks = 0, counters = 0, slices = 0;
    for (const auto& e : p["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "process_name" && e["args"]["name"].get<std::string>().starts_with("rank"))
            ++ranks;
        counters += e["ph"] == "C";
        slices += e["ph"] == "X";
    }
    CHECK(ranks == 4);
    CHECK(counters > 0);
    CHECK(slices > 4 * 16);
    std::remove((base + "-a.json").c_str());
    std::remove((base + "-b.json").c_str());
}

TEST_CASE("the shipped samples replay, and the importer samples too") {
    for (const char* trace : {"workloads/samples/pp-1f1b-4stage.yaml", "workloads/samples/tp-decode-8gpu.yaml",
                              "workloads/samples/chakra/chakra.0.json", "workloads/samples/kineto"}) {
        INFO(trace);
        auto r = run_cli(kReplayDgx + "--trace " + trace);
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, Catch::Contains("step time"));
    }
}

TEST_CASE("a malformed trace exits 2 with file, position and field") {
    struct Case {
        std::string file, expect;
    };
    for (const Case& c : {
             Case{"bad-unit.yaml", "tests/data/replay/bad-unit.yaml:5:27: program[1].duration: expected a unit after the number"},
             Case{"bad-comm.json",
                  "tests/data/replay/bad-comm.json:7:73: program[1].comm: expected the name of a communicator (dp)"},
             Case{"unmatched.yaml", "tests/data/replay/unmatched.yaml:6:9: op 's' on rank 0: expected as many receives"},
         }) {
        INFO(c.file);
        auto r = run_cli(kReplayDgx + "--trace tests/data/replay/" + c.file);
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK_THAT(r.err, Catch::Contains(c.expect));
    }
}

TEST_CASE("bad replay and gen options exit 2 and name the option") {
    struct Case {
        std::string args, expect;
    };
    for (const Case& c : {
             Case{kReplayDgx + "--trace workloads/samples/tp-decode-8gpu.yaml --format xml", "--format: expected one of table, json, csv"},
             Case{kReplayDgx + "--trace workloads/samples/tp-decode-8gpu.yaml --steps 0", "--steps: expected 1 to 10000"},
             Case{kReplayDgx + "--trace no/such.yaml", "no/such.yaml: file: expected a readable file"},
             Case{"gen dp --ranks 8 --layers 4 --params 1B", "--layer-time, --layer-flops or --tokens: expected exactly one of them"},
             Case{"gen dp --ranks 8 --params lots --layer-time 1ms", "--params: expected a positive count like '1.5B'"},
             Case{"gen dp --params 1B --layer-time 1ms --overlap maybe", "--overlap: expected on or off"},
             Case{"gen pp --stages 4", "--forward: expected a time per microbatch and stage (required)"},
             Case{"gen pp --forward 1ms --schedule zigzag", "--schedule: expected gpipe or 1f1b"},
             Case{"gen tp --mode serve", "--mode: expected one of train, prefill, decode"},
             Case{"gen moe --experts 10 --ranks 4", "--experts: expected a multiple of --ranks"},
             Case{"gen 3d --layers 30 --pp 4", "--layers: expected a multiple of --pp"},
             Case{"gen tp --gpu h900", "--gpu: expected one of a100-sxm-40gb"},
         }) {
        INFO(c.args);
        auto r = run_cli(c.args);
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK_THAT(r.err, Catch::Contains(c.expect));
    }
}

TEST_CASE("the samples are what their generator commands write") {
    for (const char* sample : {"workloads/samples/pp-1f1b-4stage.yaml", "workloads/samples/tp-decode-8gpu.yaml"}) {
        INFO(sample);
        const std::string text = slurp(collsim::test::source_path(sample));
        const std::string prefix = "# generated by: collsim ";
        REQUIRE(text.starts_with(prefix));
        const std::string command = text.substr(prefix.size(), text.find('\n') - prefix.size());
        auto r = run_cli(command);
        REQUIRE(r.exit_code == 0);
        CHECK(r.out == text);
    }
}

TEST_CASE("gen moe is seeded: the same seed gives the same trace, another seed another") {
    const std::string args = "gen moe --ranks 8 --experts 16 --layers 2 --tokens 256 --gpu h100-sxm --seed ";
    auto a = run_cli(args + "5"), b = run_cli(args + "5"), c = run_cli(args + "6");
    REQUIRE(a.exit_code == 0);
    CHECK(a.out == b.out);
    CHECK(a.out != c.out);
}

TEST_CASE("replay --algo and --proto fix every collective's choice, and bad ones are refused") {
    const std::string args = kReplayDgx + "--trace workloads/samples/tp-decode-8gpu.yaml --format json";
    auto tuned = run_cli(args), ring = run_cli(args + " --algo ring --proto simple");
    REQUIRE(tuned.exit_code == 0);
    REQUIRE(ring.exit_code == 0);
    const auto pinned = nlohmann::json::parse(ring.out), chosen = nlohmann::json::parse(tuned.out);
    for (const auto& c : pinned["collectives"]) {
        CHECK(c["algo"] == "ring");
        CHECK(c["proto"] == "simple");
    }
    bool differs = false;
    for (const auto& c : chosen["collectives"]) differs = differs || c["algo"] != "ring" || c["proto"] != "simple";
    CHECK(differs);  // the tuner's choice for decode-sized AllReduces is not ring/Simple
    auto bad = run_cli(args + " --algo spiral");
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.err, Catch::Contains("--algo") && Catch::Contains("spiral"));
}

TEST_CASE("a trace longer than the simulated clock holds is bad input, not an internal error") {
    auto r = run_cli(kReplayDgx + "-w tests/data/replay/too-long.yaml");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("an event beyond 106 days of simulated time"));
    r = run_cli(kReplayDgx + "-w tests/data/replay/too-many-flops.yaml");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("too-many-flops.yaml:4:5: op 'a' on rank 0: expected a compute time within 106 days"));
}
