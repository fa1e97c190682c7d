#include <catch2/catch.hpp>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "sim/hw/topology_loader.hpp"
#include "sim/plan/collective_costs.hpp"
#include "sim/plan/pipeline_step.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;

TEST_CASE("plan's 1F1B formula matches a replayed 1F1B pipeline, send/recv on the critical path", "[plan]") {
    // 4 stages on one DGX H100, 8 micro-batches of 1 ms forward and 2 ms
    // backward; the replayer runs the schedule op by op, plan composes it.
    const std::string trace = "/tmp/collsim-plan-pp-" + std::to_string(getpid()) + ".json";
    REQUIRE(test::run_cli("gen pp --stages 4 --microbatches 8 --forward 1ms --backward 2ms --activation 8 -o " + trace)
                .exit_code == 0);
    const auto r = test::run_cli("replay --topology topologies/dgx-h100.yaml --trace " + trace + " --format json");
    std::remove(trace.c_str());
    REQUIRE(r.exit_code == 0);
    const double replayed = nlohmann::json::parse(r.out)["step_time_us"].get<double>() * 1e-6;

    const Topology topo = load_topology(test::source_path("topologies/dgx-h100.yaml"));
    Calibration cal;
    CollectiveCosts costs(topo, cal);
    const double p2p = costs.cost(CollOp::sendrecv, Bytes{8}, {0, 1}).seconds;
    // As planner.cpp composes a stage: each micro-batch's forward and
    // backward each carry one transfer.
    const std::vector<StageCycle> stages(4, StageCycle{1e-3 + p2p, 2e-3 + p2p});
    const PipelineTime planned = pipeline_time(stages, 8, 1);
    INFO("replayed " << replayed << " s, planned " << planned.total << " s, one transfer " << p2p << " s");
    // plan puts two transfers on every one of the m + p - 1 cycles (22 here);
    // the replayed schedule waits on 16 of them: plan is 0.2% long, never short.
    CHECK(planned.total == Approx(replayed).epsilon(0.005));
    CHECK(planned.total >= replayed);
    CHECK(planned.bubble / planned.total == Approx(3.0 / 11).epsilon(0.01));
}
