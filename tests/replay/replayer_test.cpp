// The replayer's timing, worked out by hand on tests/data/replay/four-gpus.yaml:
// every GPU-to-GPU path has 1 us of latency and runs at 80 GB/s (100 GB/s
// links at NCCL's 80% for GPUs of unknown arch).
#include <catch2/catch.hpp>

#include "sim/hw/topology_loader.hpp"
#include "sim/model/predict.hpp"
#include "sim/replay/activity.hpp"
#include "sim/replay/bubbles.hpp"
#include "sim/replay/replayer.hpp"
#include "sim/replay/step_metrics.hpp"
#include "sim/replay/trace_loader.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;
using namespace collsim::literals;

namespace {
const Topology& four_gpus() {
    static const Topology t = load_topology(test::source_path("tests/data/replay/four-gpus.yaml"));
    return t;
}

struct Run {
    Trace trace;
    ReplayResult result;
    const OpTiming& at(int rank, const std::string& op, int step = 0) const {
        const Program& p = trace.program(rank);
        for (OpIndex i = 0; i < p.ops.size(); ++i)
            if (p.ops[i].name == op) return result.timings[result.instance(rank, step, i, p.ops.size())];
        throw std::logic_error("no op " + op);
    }
};

Run run(const std::string& yaml, int steps = 1) {
    Run r{parse_trace(yaml, "t.yaml"), {}};
    ReplayOptions o;
    o.steps = steps;
    r.result = replay(four_gpus(), r.trace, o);
    return r;
}
}  // namespace

TEST_CASE("a stream runs its ops in order and `after` waits across streams") {
    const Run r = run(R"(
ranks: 1
program:
  - {name: a, duration: 10us}
  - {name: b, duration: 5us}
  - {name: c, duration: 7us, stream: side}
  - {name: d, duration: 1us, stream: side, after: [b]}
)");
    CHECK(r.at(0, "a").end == 10_us);
    CHECK(r.at(0, "b").start == 10_us);
    CHECK(r.at(0, "c").start == Time{});  // another stream: runs alongside a
    CHECK(r.at(0, "d").start == 15_us);   // after b, although its stream was free at 7 us
    CHECK(r.result.makespan == 16_us);
    CHECK(r.at(0, "d").blocker == r.result.instance(0, 0, 1, 4));
}

TEST_CASE("a send and its receive run together: launch, hop and path latency, then the bytes") {
    // 8.4 us launch + 3.4 us NVLink Simple hop (NCCL v2.30.7 ring/Simple) + 1 us
    // path + 8 MB / 40 GB/s = 200 us: NCCL gives the one peer of a two-rank
    // group 4 of its 8 p2p channels, each carrying 10 GB/s (half of its 20 GB/s
    // per NVLink for a GPU of unknown arch; algorithms/tuner/p2p_channels.hpp),
    // below the links' 80 GB/s.
    const Run r = run(R"(
ranks: 2
programs:
  - {ranks: 0, ops: [{name: work, duration: 20us}, {name: s, send: 1, bytes: 8MB, after: [work]}]}
  - {ranks: 1, ops: [{name: r, recv: 0, bytes: 8MB}, {name: use, duration: 1us, after: [r]}]}
)");
    const OpTiming& recv = r.at(1, "r");
    CHECK(recv.ready == Time{});
    CHECK(recv.start == 20_us);  // when the sender got there
    CHECK(recv.end == 20_us + 8400_ns + 3400_ns + 1_us + 200_us);
    CHECK(r.at(0, "s").end == recv.end);
    REQUIRE(r.result.p2p.size() == 1);
    CHECK(r.result.p2p[0].from == 0);
    CHECK(r.result.p2p[0].to == 1);

    // A calibration's point-to-point factor slows the bytes (the channels' bound
    // with them), not the latencies.
    ReplayOptions half;
    half.calibration.p2p_bandwidth_efficiency = 0.5;
    const ReplayResult slow = replay(four_gpus(), r.trace, half);
    const OpTiming& slow_recv = slow.timings[slow.instance(1, 0, 0, r.trace.program(1).ops.size())];
    CHECK(slow_recv.end == 20_us + 8400_ns + 3400_ns + 1_us + 400_us);
}

TEST_CASE("a collective starts when its last rank arrives and takes what predict_collective says") {
    const Run r = run(R"(
ranks: 4
communicators: {world: all}
program:
  - {name: work, duration: 10us}
  - {name: ar, collective: allreduce, bytes: 4MiB, comm: world, after: [work]}
overrides:
  - {ranks: [2], op: work, duration: 50us}
)");
    REQUIRE(r.result.collectives.size() == 1);
    const CollectiveRun& c = r.result.collectives[0];
    CHECK(c.first_arrival == 10_us);
    CHECK(c.last_arrival == 50_us);
    CHECK(c.last_rank == 2);
    Routes routes(four_gpus());
    PredictRequest req;
    req.op = CollOp::allreduce;
    req.bytes = Bytes(4 << 20);
    req.ranks = four_gpus().gpus();
    const Prediction alone = predict_collective(four_gpus(), routes, req, Calibration{});
    CHECK(c.end - c.last_arrival == alone.time);
    CHECK(c.algo == alone.algo);
    CHECK(r.at(0, "ar").ready == 10_us);  // rank 0 waited 40 us
    CHECK(r.at(0, "ar").start == 50_us);
}

TEST_CASE("collectives sharing links at the same time are each slower than alone") {
    const std::string both = R"(
ranks: 4
communicators: {world: all, pair: {groups: [[0, 1]]}}
programs:
  - {ranks: "0-1", ops: [{name: big, collective: allreduce, bytes: 64MiB, comm: world},
                         {name: small, collective: allreduce, bytes: 64MiB, comm: pair, stream: other}]}
  - {ranks: "2-3", ops: [{name: big, collective: allreduce, bytes: 64MiB, comm: world}]}
)";
    const Run r = run(both);
    const Run big_alone = run(R"(
ranks: 4
communicators: {world: all}
program: [{name: big, collective: allreduce, bytes: 64MiB, comm: world}]
)");
    const Time together = r.at(0, "big").end;
    CHECK(r.at(0, "small").start == Time{});
    CHECK(together > big_alone.at(0, "big").end);
}

TEST_CASE("the roofline costs compute ops on the card the trace names") {
    const Run r = run(R"(
ranks: 1
gpu: {card: slow, peak: {bf16: 100TFLOP/s}, memory_bandwidth: 1TB/s, flops_efficiency: 0.5, memory_efficiency: 0.8}
program:
  - {name: matmul, flops: 1e12, bytes: 1GB}
  - {name: copy, flops: 1e9, bytes: 1GB, memory_efficiency: 0.5}
)");
    CHECK(r.at(0, "matmul").end == 20_ms);
    CHECK(r.at(0, "copy").end - r.at(0, "copy").start == 2_ms);
}

TEST_CASE("steps repeat the program after the previous step on each stream") {
    const Run r = run(R"(
ranks: 2
communicators: {world: all}
program:
  - {name: f, duration: 100us}
  - {name: ar, collective: allreduce, bytes: 1MiB, comm: world, after: [f]}
  - {name: opt, duration: 10us, after: [ar]}
)",
                      3);
    const Time step = r.at(0, "opt", 0).end;
    CHECK(r.at(0, "f", 1).start == step);
    CHECK(r.result.makespan == step * 3);
    CHECK(r.result.collectives.size() == 3);
    const StepMetrics m = step_metrics(r.trace, r.result);
    CHECK(m.step_time == step);
}

TEST_CASE("where the time went: compute, exposed and overlapped communication, idle") {
    const Run r = run(R"(
ranks: 2
programs:
  - {ranks: 0, ops: [{name: s, send: 1, bytes: 8MB}, {name: c, duration: 50us}, {name: tail, duration: 100us, after: [s]}]}
  - {ranks: 1, ops: [{name: r, recv: 0, bytes: 8MB}]}
)");
    // The transfer runs 0 .. 212.8 us (as above); rank 0 computes 0 .. 50 us and 212.8 .. 312.8 us.
    const StepMetrics m = step_metrics(r.trace, r.result);
    REQUIRE(m.span == 312800_ns);
    const RankBreakdown& b0 = m.ranks[0];
    CHECK(b0.compute == 150_us);
    CHECK(b0.overlapped_comm == 50_us);
    CHECK(b0.exposed_comm == 162800_ns);
    CHECK(b0.idle == Time{});
    const RankBreakdown& b1 = m.ranks[1];
    CHECK(b1.compute == Time{});
    CHECK(b1.exposed_comm == 212800_ns);
    CHECK(b1.idle == 100_us);
    CHECK(m.worst_rank == 1);
    CHECK(m.average.compute == Approx(150.0 / 312.8 / 2));
    const auto bubbles = find_bubbles(r.trace, r.result);
    REQUIRE(bubbles.size() == 1);
    CHECK(bubbles[0].rank == 1);
    CHECK(bubbles[0].cause == BubbleCause::end_of_run);
    CHECK(bubbles[0].waited_for == "rank 0 to finish");
}

TEST_CASE("a bubble names the op that waited and the communication it waited for") {
    const Run r = run(R"(
ranks: 2
communicators: {world: all}
program:
  - {name: f, duration: 10us}
  - {name: ar, collective: allreduce, bytes: 16MiB, comm: world, after: [f]}
  - {name: g, duration: 10us, after: [ar]}
overrides:
  - {ranks: [1], op: f, duration: 30us}
)");
    const auto bubbles = find_bubbles(r.trace, r.result);
    // Rank 0 waits 20 us for rank 1 to arrive; nobody idles after that.
    REQUIRE(bubbles.size() == 1);
    CHECK(bubbles[0].rank == 0);
    CHECK(bubbles[0].start == 10_us);
    CHECK(bubbles[0].end == 30_us);
    CHECK(bubbles[0].cause == BubbleCause::late_peer);
    CHECK(bubbles[0].op == "ar");
    CHECK(bubbles[0].waited_for == "rank 1 to reach allreduce 'ar' on world");
}

TEST_CASE("a bubble behind host work is blamed on the op it waited for") {
    const Run r = run(R"(
ranks: 1
program:
  - {name: launch, duration: 5us, stream: cpu, host: true}
  - {name: kernel, duration: 10us, after: [launch]}
)");
    const auto bubbles = find_bubbles(r.trace, r.result);
    REQUIRE(bubbles.size() == 1);
    CHECK(bubbles[0].end == 5_us);
    CHECK(bubbles[0].cause == BubbleCause::dependency);
    CHECK(bubbles[0].op == "kernel");
    CHECK(bubbles[0].waited_for == "compute 'launch'");
}

TEST_CASE("a deadlocked trace names the ops that wait for ever") {
    CHECK_THROWS_WITH(run(R"(
ranks: 2
communicators: {world: all}
programs:
  - {ranks: 0, ops: [{name: ar, collective: allreduce, bytes: 1K, comm: world, after: [r]}, {name: r, recv: 1, bytes: 1K, stream: x}]}
  - {ranks: 1, ops: [{name: ar, collective: allreduce, bytes: 1K, comm: world}, {name: s, send: 0, bytes: 1K, after: [ar]}]}
)"),
                      Catch::Contains("t.yaml:6:22: op 'ar' on rank 1, step 1: expected every rank of its group to "
                                      "reach it, found ranks 0 never did"));
}

TEST_CASE("a trace that needs more GPUs, or a card, than it has is refused") {
    CHECK_THROWS_WITH(run("ranks: 5\nprogram: [{name: a, duration: 1us}]\n"),
                      Catch::Contains("t.yaml:1:8: ranks: expected at most 4 ranks (the GPUs of topology 'four-gpus'), found 5"));
    CHECK_THROWS_WITH(run("ranks: 1\nprogram: [{name: a, flops: 1e9}]\n"),
                      Catch::Contains("t.yaml:2:11: op 'a' on rank 0: expected a GPU card for its roofline"));
}
