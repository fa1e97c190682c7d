// Every registered algorithm, for every operation it implements, on every
// communicator shape it accepts, leaves every rank with exactly what the
// operation defines, whatever order the steps run in (timing-free).
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "sim/exec/symbolic.hpp"
#include "tests/support/synthetic_topology.hpp"

using namespace collsim;

namespace {
// Server shapes for n ranks: one server, one GPU per server, and every even split.
std::vector<test::ClusterShape> shapes_for(int n) {
    std::vector<test::ClusterShape> out{{1, n, true, true}, {n, 1, true, true}};
    for (int per = 2; per < n; ++per)
        if (n % per == 0 && per <= 4) out.push_back({n / per, per, true, true});
    return out;
}
}  // namespace

TEST_CASE("every algorithm's schedule is correct for 2 to 17 ranks, several channels and orders") {
    int checked = 0;
    for (int n = 2; n <= 17; ++n) {
        for (const auto& shape : shapes_for(n)) {
            const Topology topo = test::cluster(shape);
            const CommLayout comm = first_gpus(topo, n);
            for (const AlgorithmInfo& algo : algorithm_registry()) {
                for (CollOp op : algo.ops) {
                    if (algo.why_not(op, comm)) continue;
                    for (int channels : {1, 2, 3}) {
                        for (int root : {0, n - 1, n / 2}) {
                            if (root != 0 && op != CollOp::broadcast && op != CollOp::reduce) continue;
                            const CollectiveCall call{op, Bytes(int64_t{3} << 20), n, channels, root};
                            const Schedule s = algo.build(call, comm);
                            INFO(fmt::format("{} {} n={} shape={}x{} channels={} root={}", algo.name, to_string(op), n,
                                             shape.nodes, shape.gpus_per_node, channels, root));
                            CHECK(verify_schedule(s, op, root, 3) == "");
                            ++checked;
                        }
                    }
                }
            }
        }
    }
    CHECK(checked > 500);
}
