#include <catch2/catch.hpp>

#include "sim/hw/topology_loader.hpp"
#include "sim/plan/planner.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;

TEST_CASE("a planned step is compute + bubble + optimizer + exposed communication, for every communicator", "[plan]") {
    const Topology topo = load_topology(test::source_path("topologies/cluster-h100-16n.yaml"));
    Calibration cal;
    CollectiveCosts costs(topo, cal);
    PlanSettings s;
    s.card = find_gpu_card("h100-sxm");
    struct Case {
        const char* model;
        Layout layout;
    };
    auto layout = [](int tp, int pp, int dp, int cp, int ep, int zero, Recompute r) {
        Layout l;
        l.tp = tp, l.pp = pp, l.dp = dp, l.cp = cp, l.ep = ep, l.zero = zero, l.recompute = r;
        l.sp = tp > 1;
        l.seq = 4096;
        l.global_batch = 4L * dp * pp;
        return l;
    };
    for (const Case& c : std::vector<Case>{
             {"llama-3-8b", layout(8, 2, 4, 2, 1, 1, Recompute::selective)},
             {"llama-3-8b", layout(4, 1, 16, 2, 1, 3, Recompute::full)},
             {"llama-3-8b", layout(1, 4, 32, 1, 1, 0, Recompute::none)},
             {"mixtral-8x7b", layout(2, 2, 32, 1, 8, 1, Recompute::full)},
         }) {
        INFO(c.model << " tp " << c.layout.tp << " pp " << c.layout.pp << " cp " << c.layout.cp << " zero "
                     << c.layout.zero);
        const ModelCard card = load_model_card(test::source_path(std::string("models/") + c.model + ".yaml"));
        check_layout(card, c.layout, 128, 8);
        const PlanResult r = plan_layout(card, c.layout, s, costs);
        REQUIRE(r.memory.fits());
        double parts = r.compute + r.bubble + r.optimizer;
        for (const CommLine& line : r.communication) {
            CHECK(line.exposed >= 0);
            CHECK(line.overlapped >= 0);
            CHECK(line.calls > 0);
            parts += line.exposed;
        }
        CHECK(parts == Approx(r.step).epsilon(1e-9));
        if (c.layout.cp > 1) {
            bool ag = false, rs = false;
            for (const CommLine& line : r.communication) {
                ag = ag || (line.group == "CP" && line.op == "AllGather");
                rs = rs || (line.group == "CP" && line.op == "ReduceScatter");
            }
            CHECK((ag && rs));
        }
    }
}
