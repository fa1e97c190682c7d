// collsim compare --plan: two training layouts side by side.
#include <catch2/catch.hpp>

#include "tests/support/run_cli.hpp"

namespace collsim::test {

namespace {
const std::string kBase = "compare --plan llama-3-8b -t topologies/cluster-h100-2n.yaml ";
}

TEST_CASE("compare --plan: a layout against itself is the same, with plan's step time", "[compare]") {
    const CliResult r = run_cli(kBase + "--layout tp=8");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("# collsim compare: llama-3-8b training step on 16 GPUs"));
    CHECK_THAT(r.out, Catch::Contains("step     271552.547     271552.547   1.000  same"));
    const CliResult plan = run_cli("plan --model llama-3-8b --topology topologies/cluster-h100-2n.yaml --tp 8 --format json");
    CHECK_THAT(plan.out, Catch::Contains("\"step_time_us\": 271552.54"));
    // Each communicator's exposed time is a row of its own.
    CHECK_THAT(r.out, Catch::Contains("TP ReduceScatter exposed"));
}

TEST_CASE("compare --plan judges layouts by time per token", "[compare]") {
    // Micro-batch 2 doubles the global batch: a longer step, more tokens per second.
    const CliResult r = run_cli(kBase + "--layout tp=8 --a-layout micro_batch=1 --b-layout micro_batch=2");
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("step     271552.547     493404.545   0.908  faster"));
    CHECK_THAT(r.out, Catch::Contains("# B: topologies/cluster-h100-2n.yaml tp=8 micro_batch=2"));
}

TEST_CASE("compare --plan says which layout does not fit", "[compare]") {
    const CliResult r = run_cli(kBase + "--a-layout tp=1,micro_batch=2 --b-layout tp=8 --format csv");
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("\nstep,,271552.547022,,A does not fit,"));
}

TEST_CASE("compare --plan refuses bad layouts and mixed questions", "[compare]") {
    const CliResult key = run_cli(kBase + "--layout tpp=8");
    CHECK(key.exit_code == 2);
    CHECK_THAT(key.err, Catch::Contains("--layout: expected KEY=VALUE with a plan layout option"));
    const CliResult number = run_cli(kBase + "--b-layout tp=eight");
    CHECK(number.exit_code == 2);
    CHECK_THAT(number.err, Catch::Contains("--b-layout: expected an integer (32 bits), found 'eight'"));
    CHECK(run_cli(kBase + "--op allreduce").exit_code == 2);
    CHECK(run_cli(kBase + "--a-algo ring").exit_code == 2);
}

}  // namespace collsim::test
