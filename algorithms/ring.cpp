// Ring: the ranks in communicator order form a ring, one per channel.
//   ReduceScatter: n-1 steps; in step s rank i sends block (i-s-1) mod n to
//     rank i+1, which adds its own contribution; rank i ends with block i.
//   AllGather: n-1 steps; in step s rank i passes block (i-s) mod n on.
//   AllReduce: a reduce-scatter then an all-gather, 2(n-1) steps; the
//     reduce-scatter leaves rank i with block i+1, which the all-gather spreads.
//   Broadcast and Reduce run as a pipelined chain (ring_chain.cpp).
// Blocks are cut over channels: chunk = block * channels + channel.
// Past CollectiveCall::max_steps the phases are lumped into fewer rounds
// (ring_steps.hpp): a flat ring on 1,024 ranks has 4 million steps per channel.
//
// Closed form (no contention): ring_pass (ring_bound.hpp), the larger of the
// data's path around the ring and the busiest hop's load. On a uniform ring
// that is NCCL's ring model: 2(n-1) step latencies for AllReduce (n-1 for
// AllGather and ReduceScatter) plus 2(n-1)/n S over the bandwidth.
#include "algorithms/algorithm.hpp"
#include "algorithms/ring_bound.hpp"
#include "algorithms/ring_chain.hpp"
#include "algorithms/ring_steps.hpp"

namespace collsim {

namespace {

Schedule ring_schedule(const CollectiveCall& call, const CommLayout&) {
    if (call.op == CollOp::broadcast || call.op == CollOp::reduce) return ring_chain_schedule(call);
    const int n = call.ranks, channels = call.channels;
    Schedule s;
    s.algorithm = "ring";
    s.ranks = n;
    s.channels = channels;
    s.chunks = n * channels;
    if (n < 2) return s;
    std::vector<int> ring(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) ring[static_cast<std::size_t>(i)] = i;
    const bool ar = call.op == CollOp::allreduce;
    // Each phase step is a send and a receive per rank. Past the bound, lump
    // each phase's n-1 steps into as many rounds as fit (ring_steps.hpp).
    const std::size_t per_round = std::size_t{2} * static_cast<std::size_t>(n) * static_cast<std::size_t>(channels) *
                                  (ar ? 2 : 1);
    int rounds = 0;
    if (call.max_steps > 0 && per_round * static_cast<std::size_t>(n - 1) > call.max_steps) {
        rounds = static_cast<int>(std::max<std::size_t>(1, call.max_steps / per_round));
        s.latency_scale = static_cast<double>(n - 1) / rounds;
    }
    for (int ch = 0; ch < channels; ++ch) {
        std::vector<StepId> last(static_cast<std::size_t>(n), kNoStep);
        const Bytes channel_bytes = piece(call.bytes, channels, ch);
        RingSteps r{ring, n - 1, true, 0, ch, 1, [&](int block, int) { return block * channels + ch; },
                    [&](int block, int) { return piece(channel_bytes, n, block); }, rounds};
        if (ar || call.op == CollOp::reducescatter) {
            r.shift = ar ? 0 : -1;  // AllReduce leaves rank i with block i+1, ReduceScatter with block i
            add_ring_steps(s, r, last);
        }
        if (ar || call.op == CollOp::allgather) {
            r.reduce = false;
            r.shift = ar ? 1 : 0;
            add_ring_steps(s, r, last);
        }
    }
    return s;
}

FluidForm ring_form(const CollectiveCall& call, CostModel& m, bool streams) {
    if (call.op == CollOp::broadcast || call.op == CollOp::reduce) return ring_chain_form(call, m, streams);
    const int n = call.ranks, channels = call.channels;
    FluidForm f{m.launch(), Time{}, {}, {}};
    if (n < 2) return f;
    const Bytes chunk = largest_piece(largest_piece(call.bytes, channels), n);
    const bool ar = call.op == CollOp::allreduce;
    const int reduce_steps = ar || call.op == CollOp::reducescatter ? n - 1 : 0;
    const int copy_steps = ar || call.op == CollOp::allgather ? n - 1 : 0;
    std::vector<int> ring(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) ring[static_cast<std::size_t>(i)] = i;
    f.closed += ring_pass(m, ring, reduce_steps, copy_steps, chunk, channels, streams ? &f : nullptr);
    return f;
}

Estimate ring_estimate(const CollectiveCall& call, CostModel& m) { return ring_form(call, m, false).closed; }

}  // namespace

AlgorithmInfo ring_algorithm() {
    AlgorithmInfo a{"ring",
                         "ring over the communicator in rank order, one ring per channel; Broadcast and Reduce "
                         "as a pipelined chain from or to the root",
                         {CollOp::allreduce, CollOp::allgather, CollOp::reducescatter, CollOp::broadcast,
                          CollOp::reduce},
                         NcclFamily::ring,
                         "NCCL's ring",
                         {},
                         ring_schedule,
                         ring_estimate};
    a.fluid = ring_form;
    return a;
}

}  // namespace collsim
