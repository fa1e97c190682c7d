// Stream classes (sim/exec/executor.cpp): a fluid collective's identical
// streams run as one weighted flow. They must change no time: a small 3D
// trace (TP inside nodes, PP and DP across them) on a 2:1 fat-tree replays to
// the same step and per-collective times with classes on and off, also where
// a straggler and a degraded link make ranks unlike.
#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>

#include "sim/faults/fault_plan.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/replay/replayer.hpp"
#include "sim/replay/trace_loader.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;

namespace {
const Topology& two_to_one() {
    static const Topology t = load_topology(test::source_path("tests/data/fluid/h100-4n-2to1.yaml"));
    return t;
}

// TP 8 in each node, PP 2 over node pairs, DP 2 (ranks 16 apart): each DP
// group's tree AllReduce crosses the spine's 2:1 uplinks beside the others'.
const char* kTrace = R"(
ranks: 32
communicators:
  tp: {blocks: 8}
  pp: {size: 2, stride: 8}
  dp: {stride: 16}
program:
  - {name: fwd, duration: 20us}
  - {name: tp.ar, collective: allreduce, bytes: 8MiB, comm: tp, after: [fwd]}
  - {name: bwd, duration: 30us, after: [tp.ar]}
  - {name: dp.ar0, collective: allreduce, bytes: 25MiB, comm: dp, stream: dp, after: [bwd]}
  - {name: tp.ar2, collective: allreduce, bytes: 8MiB, comm: tp, after: [bwd]}
  - {name: dp.ar1, collective: allreduce, bytes: 25MiB, comm: dp, stream: dp, after: [dp.ar0, tp.ar2]}
)";

using Times = std::vector<std::tuple<std::string, int, int64_t, int64_t>>;
std::pair<Time, Times> run(bool classes, const FaultPlan* faults) {
    ReplayOptions o;
    o.model = ModelTier::fluid;
    o.algo = "tree";
    o.stream_classes = classes;
    o.faults = faults;
    o.steps = 2;
    const ReplayResult r = replay(two_to_one(), parse_trace(kTrace, "t.yaml"), o);
    Times t;
    for (const CollectiveRun& c : r.collectives)
        t.emplace_back(c.name, c.group, c.last_arrival.ps(), (c.end - c.last_arrival).ps());
    std::sort(t.begin(), t.end());
    return {r.makespan, t};
}
}  // namespace

TEST_CASE("stream classes: the same times as every stream its own flow, symmetric or not") {
    const auto plain = run(false, nullptr), classes = run(true, nullptr);
    CHECK(classes.first == plain.first);
    CHECK(classes.second == plain.second);
    REQUIRE(plain.second.size() == 80);  // 2 steps x (4 TP groups x 2 + 16 DP groups x 2)

    // A straggler on one rank and a slow NIC link: groups no longer alike.
    const FaultPlan faults = parse_fault_plan(R"(
faults:
  - {kind: straggler, target: "node1.gpu3", per: step, p: 1, min: 1.5, max: 1.5}
  - {kind: degrade, target: "node2.nic0--*", bandwidth: 0.5, latency: 2us}
)",
                                              "f.yaml", two_to_one());
    const auto plain_f = run(false, &faults), classes_f = run(true, &faults);
    CHECK(plain_f.first > plain.first);
    CHECK(classes_f.first == plain_f.first);
    CHECK(classes_f.second == plain_f.second);
}
