// Ring: the ranks in communicator order form a ring, one per channel.
//   ReduceScatter: n-1 steps; in step s rank i sends block (i-s-1) mod n to
//     rank i+1, which adds its own contribution; rank i ends with block i.
//   AllGather: n-1 steps; in step s rank i passes block (i-s) mod n on.
//   AllReduce: a reduce-scatter then an all-gather, 2(n-1) steps; the
//     reduce-scatter leaves rank i with block i+1, which the all-gather spreads.
//   Broadcast and Reduce run as a pipelined chain (ring_chain.cpp).
// Blocks are cut over channels: chunk = block * channels + channel.
//
// Closed form (no contention): ring_pass (ring_bound.hpp), the larger of the
// data's path around the ring and the busiest hop's load. On a uniform ring
// that is NCCL's ring model: 2(n-1) step latencies for AllReduce (n-1 for
// AllGather and ReduceScatter) plus 2(n-1)/n S over the bandwidth.
#include "algorithms/algorithm.hpp"
#include "algorithms/ring_bound.hpp"
#include "algorithms/ring_chain.hpp"

namespace collsim {

namespace {

struct RingPhase {
    bool reduce;  // reduce-scatter (true) or all-gather
    int shift;    // block sent by rank i in step s: i + shift - s
};

// Adds `steps` ring steps; last[i] is the step on rank i that its next send waits for.
void add_ring_phase(Schedule& s, const RingPhase& phase, int steps, int channel, Bytes channel_bytes,
                    std::vector<StepId>& last) {
    const int n = s.ranks, channels = s.channels;
    auto chunk_of = [&](int block) { return wrap(block, n) * channels + channel; };
    auto bytes_of = [&](int block) { return piece(channel_bytes, n, wrap(block, n)); };
    std::vector<StepId> sends(static_cast<std::size_t>(n));
    for (int step = 0; step < steps; ++step) {
        for (int i = 0; i < n; ++i) {
            const int block = i + phase.shift - step;
            const StepId prev = last[static_cast<std::size_t>(i)];
            sends[static_cast<std::size_t>(i)] =
                prev == kNoStep ? s.send(i, wrap(i + 1, n), channel, chunk_of(block), bytes_of(block))
                                : s.send(i, wrap(i + 1, n), channel, chunk_of(block), bytes_of(block), {prev});
        }
        for (int i = 0; i < n; ++i) {
            const int from = wrap(i - 1, n);
            const int block = from + phase.shift - step;
            last[static_cast<std::size_t>(i)] = s.receive(phase.reduce ? StepKind::reduce : StepKind::copy,
                                                          sends[static_cast<std::size_t>(from)], chunk_of(block));
        }
    }
}

Schedule ring_schedule(const CollectiveCall& call, const Communicator&) {
    if (call.op == CollOp::broadcast || call.op == CollOp::reduce) return ring_chain_schedule(call);
    const int n = call.ranks, channels = call.channels;
    Schedule s;
    s.algorithm = "ring";
    s.ranks = n;
    s.channels = channels;
    s.chunks = n * channels;
    if (n < 2) return s;
    for (int ch = 0; ch < channels; ++ch) {
        std::vector<StepId> last(static_cast<std::size_t>(n), kNoStep);
        const Bytes channel_bytes = piece(call.bytes, channels, ch);
        switch (call.op) {
            case CollOp::allreduce:
                add_ring_phase(s, {true, 0}, n - 1, ch, channel_bytes, last);
                add_ring_phase(s, {false, 1}, n - 1, ch, channel_bytes, last);
                break;
            case CollOp::reducescatter: add_ring_phase(s, {true, -1}, n - 1, ch, channel_bytes, last); break;
            case CollOp::allgather: add_ring_phase(s, {false, 0}, n - 1, ch, channel_bytes, last); break;
            default: break;
        }
    }
    return s;
}

Estimate ring_estimate(const CollectiveCall& call, CostModel& m) {
    if (call.op == CollOp::broadcast || call.op == CollOp::reduce) return ring_chain_estimate(call, m);
    const int n = call.ranks, channels = call.channels;
    Estimate t = m.launch();
    if (n < 2) return t;
    const Bytes chunk = largest_piece(largest_piece(call.bytes, channels), n);
    const bool ar = call.op == CollOp::allreduce;
    const int reduce_steps = ar || call.op == CollOp::reducescatter ? n - 1 : 0;
    const int copy_steps = ar || call.op == CollOp::allgather ? n - 1 : 0;
    return t + ring_pass(m, m.comm().gpus, reduce_steps, copy_steps, chunk, channels);
}

}  // namespace

AlgorithmInfo ring_algorithm() {
    return AlgorithmInfo{"ring",
                         "ring over the communicator in rank order, one ring per channel; Broadcast and Reduce "
                         "as a pipelined chain from or to the root",
                         {CollOp::allreduce, CollOp::allgather, CollOp::reducescatter, CollOp::broadcast,
                          CollOp::reduce},
                         NcclFamily::ring,
                         "NCCL's ring",
                         {},
                         ring_schedule,
                         ring_estimate};
}

}  // namespace collsim
