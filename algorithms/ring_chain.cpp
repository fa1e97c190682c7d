// Broadcast: the ranks from the root on, in ring order, form a chain; each
// channel's data is cut into pipeline chunks that flow down the chain, a rank
// forwarding chunk j once it has it and chunk j-1 is on the wire.
// Reduce: the chain runs toward the root; each rank adds its contribution to
// chunk j (after chunk j-1) and forwards the sum.
//
// Closed form: a chain is a pipeline of stages that hold a resource (a link
// sending a chunk, a GPU reducing one) separated by pure delays (latencies).
// With k chunks, T = launch + sum(delays) + sum(stages) + (k-1) * max(stage):
// the longest path through the (stage, chunk) grid.
#include "algorithms/ring_chain.hpp"

#include "algorithms/chunking.hpp"
#include "sim/exec/step_costs.hpp"

namespace collsim {

namespace {
int chain_rank(const CollectiveCall& call, int position) {
    const int first = call.op == CollOp::broadcast ? call.root : call.root + 1;
    return wrap(first + position, call.ranks);
}
}  // namespace

Schedule ring_chain_schedule(const CollectiveCall& call) {
    const int n = call.ranks, channels = call.channels;
    Schedule s;
    s.algorithm = "ring";
    s.ranks = n;
    s.channels = channels;
    const int k = pipeline_chunks(call, largest_piece(call.bytes, channels));
    s.chunks = channels * k;
    if (n < 2) return s;
    const bool reduce = call.op == CollOp::reduce;
    for (int ch = 0; ch < channels; ++ch) {
        const Bytes channel_bytes = piece(call.bytes, channels, ch);
        // Per position: its previous send and its previous reduction.
        std::vector<StepId> prev_send(static_cast<std::size_t>(n), kNoStep), prev_reduce(prev_send);
        std::vector<StepId> arrived(static_cast<std::size_t>(n), kNoStep);  // send into position p, this chunk
        for (int j = 0; j < k; ++j) {
            const int chunk = ch * k + j;
            const Bytes bytes = piece(channel_bytes, k, j);
            for (int p = 0; p < n; ++p) {
                const auto pu = static_cast<std::size_t>(p);
                StepId have = kNoStep;  // the step after which position p holds chunk j
                if (p > 0) {
                    const StepKind kind = reduce ? StepKind::reduce : StepKind::copy;
                    have = prev_reduce[pu] == kNoStep || !reduce
                               ? s.receive(kind, arrived[pu], chunk)
                               : s.receive(kind, arrived[pu], chunk, {prev_reduce[pu]});
                    prev_reduce[pu] = have;
                }
                if (p == n - 1) continue;
                std::vector<StepId> deps;
                if (have != kNoStep) deps.push_back(have);
                if (prev_send[pu] != kNoStep) deps.push_back(after_sent(prev_send[pu]));
                prev_send[pu] = s.send(chain_rank(call, p), chain_rank(call, p + 1), ch, chunk, bytes, deps);
                arrived[pu + 1] = prev_send[pu];
            }
        }
    }
    return s;
}

FluidForm ring_chain_form(const CollectiveCall& call, CostModel& m, bool streams) {
    const int n = call.ranks, channels = call.channels;
    FluidForm f{m.launch(), Time{}, {}, {}};
    if (n < 2) return f;
    const int k = pipeline_chunks(call, largest_piece(call.bytes, channels));
    const Bytes chunk = largest_piece(largest_piece(call.bytes, channels), k);
    const Bytes all = chunk * k;
    auto rank = [&](int position) { return chain_rank(call, position); };
    Time widest_stage{};
    for (int p = 0; p + 1 < n; ++p) {
        const Estimate hop = m.send_channels(rank(p), rank(p + 1), chunk, channels);
        f.closed += hop;
        widest_stage = std::max(widest_stage, hop.bandwidth);
        for (int c = 0; streams && c < channels; ++c) f.streams.push_back(FluidStream{rank(p), rank(p + 1), c, all});
        if (call.op == CollOp::reduce) {
            const Estimate r = m.reduce(m.gpu(rank(p + 1)), chunk, channels);
            f.closed += r;
            widest_stage = std::max(widest_stage, r.bandwidth);
            const Bytes reduced = exposed_reduction(chunk, m.protocol()) * k;
            for (int c = 0; streams && c < channels; ++c)
                f.streams.push_back(FluidStream{rank(p + 1), kMemoryStream, c, reduced});
        }
    }
    f.closed.bandwidth += widest_stage * (k - 1);
    f.steady = widest_stage * k;
    return f;
}

Estimate ring_chain_estimate(const CollectiveCall& call, CostModel& m) { return ring_chain_form(call, m, false).closed; }

}  // namespace collsim
