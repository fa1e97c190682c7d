// The behaviours issue 6 must show, on generated traces replayed on the
// shipped DGX H100 topology.
#include <catch2/catch.hpp>

#include "sim/hw/topology_loader.hpp"
#include "tests/support/topology_inputs.hpp"
#include "sim/replay/replayer.hpp"
#include "sim/replay/step_metrics.hpp"
#include "sim/replay/trace_loader.hpp"
#include "tests/support/run_cli.hpp"
#include "workloads/gen/dp.hpp"
#include "workloads/gen/hybrid.hpp"
#include "workloads/gen/moe.hpp"
#include "workloads/gen/pp.hpp"
#include "workloads/gen/tp.hpp"

using namespace collsim;
using namespace collsim::literals;

namespace {
struct Replayed {
    Trace trace;
    ReplayResult result;
    StepMetrics metrics;
};

Replayed replay_doc(const gen::Json& doc) {
    Replayed r{parse_trace(gen::render_json(doc), "generated.json"), {}, {}};
    r.result = replay(test::dgx_h100(), r.trace, ReplayOptions{});
    r.metrics = step_metrics(r.trace, r.result);
    return r;
}
}  // namespace

TEST_CASE("a pipeline of equal passes idles (p-1)/(m+p-1) of the step, within 2%") {
    for (const char* schedule : {"1f1b", "gpipe"})
        for (int m : {4, 8, 16}) {
            gen::PpOptions o;
            o.stages = 4;
            o.microbatches = m;
            o.schedule = schedule;
            o.forward = 1_ms;
            o.activation = Bytes(4 << 20);
            const Replayed r = replay_doc(gen::generate_pp(o, "test"));
            const double expected = 3.0 / (m + 3);
            INFO(schedule << " m=" << m);
            CHECK(r.metrics.average.idle == Approx(expected).epsilon(0.02));
            for (const auto& rank : r.metrics.ranks) CHECK(rank.fractions.idle == Approx(expected).epsilon(0.02));
        }
}

TEST_CASE("TP decode on 8 GPUs issues exactly 2 AllReduces per layer per token") {
    gen::TpOptions o;
    o.mode = "decode";
    o.layers = 6;
    o.tokens = 3;
    o.shape.tp = 8;
    o.shape.hidden = 8192;
    o.shape.ffn = 28672;
    o.shape.seq = 1024;
    o.gpu.card = "h100-sxm";
    const Replayed r = replay_doc(gen::generate_tp(o, "test"));
    REQUIRE(r.result.collectives.size() == 2 * 6 * 3);
    for (const CollectiveRun& c : r.result.collectives) {
        CHECK(c.kind == CollOp::allreduce);
        CHECK(c.ranks == 8);
        CHECK(c.bytes == Bytes(8192 * 2));  // one token's activations, bf16
    }
    // Batch-size-1 decode is latency bound: communication is a large share.
    CHECK(r.metrics.average.exposed_comm > 0.2);
}

TEST_CASE("DP without overlap exposes exactly its AllReduce times; with overlap less is exposed") {
    gen::DpOptions o;
    o.ranks = 8;
    o.layers = 8;
    o.params = 2e9;
    o.layer_time = 2_ms;
    o.bucket = Bytes(100 << 20);
    o.overlap = false;
    const Replayed off = replay_doc(gen::generate_dp(o, "test"));
    Time allreduce{};
    for (const CollectiveRun& c : off.result.collectives) allreduce += c.end - c.last_arrival;
    REQUIRE(off.result.collectives.size() == 39);  // 4 GB of bf16 gradients in 100 MiB buckets: 38.1
    for (const RankBreakdown& b : off.metrics.ranks) {
        CHECK(b.exposed_comm == allreduce);
        CHECK(b.overlapped_comm == Time{});
    }
    o.overlap = true;
    const Replayed on = replay_doc(gen::generate_dp(o, "test"));
    CHECK(on.metrics.average.exposed_comm < off.metrics.average.exposed_comm);
    CHECK(on.metrics.average.overlapped_comm > 0.1);
    CHECK(on.metrics.step_time < off.metrics.step_time);
}

TEST_CASE("skewed MoE routing makes the busiest expert's links hotter than even routing") {
    static const Topology servers = load_topology(test::source_path("tests/data/replay/two-servers.yaml"));
    auto hottest_over_mean = [](double skew) {
        gen::MoeOptions o;
        o.ranks = 16;
        o.experts = 16;
        o.layers = 1;
        o.tokens = 512;
        o.hidden = 1024;
        o.ffn = 2048;
        o.skew = skew;
        o.gpu.card = "h100-sxm";
        const Trace t = parse_trace(gen::render_json(gen::generate_moe(o, "test")), "moe.json");
        const ReplayResult r = replay(servers, t, ReplayOptions{});
        double most = 0, sum = 0;
        int used = 0;
        for (Bytes b : r.carried)
            if (b.count() > 0) {
                most = std::max(most, static_cast<double>(b.count()));
                sum += static_cast<double>(b.count());
                ++used;
            }
        return most / (sum / used);
    };
    const double even = hottest_over_mean(0), skewed = hottest_over_mean(1.5);
    CHECK(even < 1.5);
    CHECK(skewed > 2 * even);
}

TEST_CASE("3D parallelism: TP groups inside a server beat TP groups across servers") {
    static const Topology two = load_topology(test::source_path("topologies/cluster-h100-2n.yaml"));
    auto run = [](const std::string& placement, int tp, int pp, int dp) {
        gen::HybridOptions o;
        o.tp = tp;
        o.pp = pp;
        o.dp = dp;
        o.layers = 4;
        o.microbatches = 4;
        o.shape.hidden = 4096;
        o.shape.seq = 2048;
        o.tp_placement = placement;
        o.gpu.card = "h100-sxm";
        const Trace t = parse_trace(gen::render_json(gen::generate_hybrid(o, "test")), "3d.json");
        return std::make_pair(t, replay(two, t, ReplayOptions{}));
    };
    const auto [inside_trace, inside] = run("inside", 8, 2, 1);
    const auto [across_trace, across] = run("across", 8, 2, 1);
    CHECK(inside.makespan < across.makespan);
    // Each of the 4 microbatches crosses 2 layers per stage, 2 AllReduces each way, on 2 TP groups.
    CHECK(inside.collectives.size() == 4 * 2 * 4 * 2);
    CHECK(inside.p2p.size() == 2 * 4 * 8);  // activations and gradients, 4 microbatches, 8 TP ranks
    const auto [mixed_trace, mixed] = run("inside", 4, 2, 2);
    int dp_calls = 0;
    for (const CollectiveRun& c : mixed.collectives) dp_calls += mixed_trace.communicators[c.comm].name == "dp";
    CHECK(dp_calls > 0);
    CHECK(mixed_trace.communicators[*mixed_trace.find_communicator("dp")].groups[0] == std::vector<int>{0, 8});
}
