#include <catch2/catch.hpp>

#include <memory>

#include "sim/hw/topology_loader.hpp"
#include "sim/plan/collective_costs.hpp"
#include "sim/plan/layout.hpp"
#include "sim/plan/rank_groups.hpp"
#include "sim/replay/replayer.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;

namespace {
// Every rank runs one AllReduce of `bytes` in its group of `comm_groups`, all at once.
Trace plan_concurrent_groups(int ranks, const std::vector<std::vector<int>>& groups, Bytes bytes) {
    Trace t;
    t.name = "concurrent-groups";
    t.ranks = ranks;
    t.stream_index("comm");
    Communicator c;
    c.name = "dp";
    c.groups = groups;
    index_communicator(c, ranks);
    t.communicators.push_back(std::move(c));
    auto program = std::make_shared<Program>();
    TraceOp op;
    op.name = "grads";
    op.kind = OpKind::collective;
    op.collective.op = CollOp::allreduce;
    op.collective.bytes = bytes;
    program->ops.push_back(op);
    t.programs.assign(static_cast<std::size_t>(ranks), program);
    return t;
}
}  // namespace

TEST_CASE("DP groups timed one at a time take as long as all of them replayed together", "[plan]") {
    // TP8 x DP16 on 16 DGX H100s: the 8 DP groups are the 8 rails; plan times
    // the first alone, the replay runs all 8 at once on one network.
    const Topology topo = load_topology(test::source_path("topologies/cluster-h100-16n.yaml"));
    Layout l;
    l.tp = 8, l.dp = 16;
    const RankGroups g = rank_groups(l);
    std::vector<std::vector<int>> groups;
    for (int local = 0; local < 8; ++local) {
        std::vector<int> members;
        for (int r : g.dp) members.push_back(r + local);
        groups.push_back(members);
    }
    const Bytes bytes{64 << 20};
    Calibration cal;
    CollectiveCosts costs(topo, cal);
    const double alone = costs.cost(CollOp::allreduce, bytes, g.dp).seconds;
    const ReplayResult together = replay(topo, plan_concurrent_groups(128, groups, bytes), ReplayOptions{});
    REQUIRE(together.collectives.size() == 8);
    for (const CollectiveRun& run : together.collectives) {
        const double seconds = (run.end - run.last_arrival).us() * 1e-6;
        CHECK(seconds == Approx(alone).epsilon(0.01));
    }
}
