// A ring over many ranks is lumped past its step bound (ring_steps.hpp): these
// tests hold the lumped schedule to the exact one where both can run, and to
// the closed form where only the lumped one can.
#include <catch2/catch.hpp>

#include <cmath>

#include "algorithms/algorithm.hpp"
#include "sim/exec/symbolic.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/model/predict.hpp"

using namespace collsim;

namespace {
Topology shipped_topology(const std::string& name) {
    return load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/" + name);
}

Schedule ring_schedule(const Topology& topo, CollOp op, int n, int channels, std::size_t max_steps) {
    CollectiveCall call{op, Bytes(int64_t{64} << 20), n, channels};
    call.max_steps = max_steps;
    return find_algorithm("ring")->build(call, first_gpus(topo, n));
}

Prediction ring_on(const Topology& topo, Routes& routes, int n, int64_t bytes, std::size_t max_steps,
                   bool explain = false) {
    PredictRequest req;
    req.bytes = Bytes(bytes);
    req.ranks = first_gpus(topo, n).gpus;
    req.algo = "ring";
    req.proto = "simple";
    req.max_steps = max_steps;
    req.explain = explain;
    req.model = ModelTier::flow;  // lumping is the chunk-level tier's
    return predict_collective(topo, routes, req, Calibration{});
}
}  // namespace

TEST_CASE("a lumped ring keeps within its step bound, moves every byte and refuses a symbolic check") {
    const Topology topo = shipped_topology("cluster-h100-2n.yaml");
    for (CollOp op : {CollOp::allreduce, CollOp::allgather, CollOp::reducescatter}) {
        const Schedule exact = ring_schedule(topo, op, 16, 2, 0);
        const Schedule lumped = ring_schedule(topo, op, 16, 2, exact.steps.size() / 4);
        INFO(to_string(op));
        CHECK(exact.latency_scale == 1.0);
        CHECK(lumped.steps.size() <= exact.steps.size() / 4);
        // 15 steps per phase in 3 rounds: each send stands for 5 steps.
        CHECK(lumped.latency_scale == 5.0);
        auto sent = [](const Schedule& s) {
            int64_t total = 0;
            for (const Step& st : s.steps) total += st.kind == StepKind::send ? st.bytes.count() : 0;
            return total;
        };
        CHECK(sent(lumped) == sent(exact));
        CHECK(verify_schedule(exact, op, 0, 1).empty());
        CHECK_THAT(verify_schedule(lumped, op, 0, 1), Catch::Contains("timing only"));
    }
}

TEST_CASE("a lumped ring times within 3% of the exact ring across 16 nodes") {
    const Topology topo = shipped_topology("cluster-h100-16n.yaml");
    Routes routes(topo);
    for (int64_t bytes : {int64_t{64} << 10, int64_t{16} << 20, int64_t{1} << 30}) {
        const Prediction exact = ring_on(topo, routes, 128, bytes, kMaxSimulatedSteps);
        const Prediction lumped = ring_on(topo, routes, 128, bytes, 120'000);
        REQUIRE(exact.why.find("lumped") == std::string::npos);
        REQUIRE(lumped.why.find("lumped") != std::string::npos);
        const double error = std::abs(lumped.time.us() / exact.time.us() - 1);
        INFO("bytes=" << bytes << " exact=" << exact.time.us() << "us lumped=" << lumped.time.us() << "us");
        CHECK(error < 0.03);
    }
}

TEST_CASE("a flat ring on 1,024 GPUs runs lumped and its latency agrees with the closed form") {
    // 1 MiB is latency-bound: the closed form is the exact ring's time there
    // (simulated exactly, 33.5 million steps: 10,786 us; lumped: 10,836 us).
    const Topology topo = shipped_topology("cluster-h100-128n.yaml");
    Routes routes(topo);
    const Prediction p = ring_on(topo, routes, 1024, int64_t{1} << 20, kMaxSimulatedSteps, true);
    REQUIRE(p.flow);
    REQUIRE(p.closed);
    CHECK(p.why.find("lumped") != std::string::npos);
    INFO("flow=" << p.flow->us() << "us closed=" << p.closed->total().us() << "us");
    CHECK(std::abs(p.flow->us() / p.closed->total().us() - 1) < 0.02);
}
