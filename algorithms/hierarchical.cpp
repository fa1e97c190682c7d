// Hierarchical AllReduce over servers ("nodes") of p ranks each:
//   1. inside every server, a ring reduce-scatter leaves local rank l with
//      block l of the buffer summed over its server;
//   2. across servers, the ranks with the same local index (one rail: one GPU,
//      and in rail-optimised clusters one NIC, per server) ring-AllReduce
//      their block, cut into one piece per server;
//   3. inside every server, a ring all-gather spreads the blocks.
// Only 1/p of the buffer crosses the network from each GPU, and every rail
// works at once, which is what NCCL's ring achieves with one ring per NIC
// and what its tree/CollNet variants do explicitly.
//
// Closed form: the three ring passes one after another (ring_bound.hpp), each
// at its slowest server or rail: T = launch + RS(p-1 steps of S/p) +
// AR(2(m-1) steps of S/(pm)) + AG(p-1 steps of S/p).
#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/ring_bound.hpp"
#include "algorithms/ring_steps.hpp"

namespace collsim {

namespace {

Unavailable hierarchical_requirement(CollOp, const CommLayout& comm) {
    if (comm.node_count() < 2)
        return fmt::format("hierarchical needs ranks on at least two servers; all {} share one", comm.size());
    if (!comm.ranks_per_node())
        return std::string("hierarchical needs the same number of ranks on every server");
    return std::nullopt;
}

std::vector<int> rail(const CommLayout& comm, int local) {
    std::vector<int> out;
    for (const auto& node : comm.nodes) out.push_back(node[static_cast<std::size_t>(local)]);
    return out;
}

Schedule hierarchical_schedule(const CollectiveCall& call, const CommLayout& comm) {
    const int n = call.ranks, channels = call.channels, m = comm.node_count(), p = *comm.ranks_per_node();
    Schedule s;
    s.algorithm = "hierarchical";
    s.ranks = n;
    s.channels = channels;
    s.chunks = p * m * channels;
    for (int ch = 0; ch < channels; ++ch) {
        const Bytes channel_bytes = piece(call.bytes, channels, ch);
        auto chunk = [&](int block, int sub) { return (block * m + sub) * channels + ch; };
        auto bytes = [&](int block, int sub) { return piece(piece(channel_bytes, p, block), m, sub); };
        std::vector<StepId> last(static_cast<std::size_t>(n), kNoStep);
        for (const auto& node : comm.nodes)  // 1. reduce-scatter inside each server
            add_ring_steps(s, RingSteps{node, p - 1, true, -1, ch, m, chunk, bytes}, last);
        for (int l = 0; l < p; ++l) {  // 2. AllReduce of block l along rail l
            RingSteps r{rail(comm, l), m - 1, true, 0, ch, 1, [&, l](int sub, int) { return chunk(l, sub); },
                        [&, l](int sub, int) { return bytes(l, sub); }};
            add_ring_steps(s, r, last);
            r.reduce = false;
            r.shift = 1;
            add_ring_steps(s, r, last);
        }
        for (const auto& node : comm.nodes)  // 3. all-gather inside each server
            add_ring_steps(s, RingSteps{node, p - 1, false, 0, ch, m, chunk, bytes}, last);
    }
    return s;
}

Estimate hierarchical_estimate(const CollectiveCall& call, CostModel& m) {
    const CommLayout& comm = m.comm();
    const int channels = call.channels, nodes = comm.node_count(), p = *comm.ranks_per_node();
    const Bytes block = largest_piece(largest_piece(call.bytes, channels), p);
    const Bytes sub = largest_piece(block, nodes);
    Estimate rs, ar, ag;
    for (const auto& node : comm.nodes) {
        rs = slower(rs, ring_pass(m, node, p - 1, 0, block, channels));
        ag = slower(ag, ring_pass(m, node, 0, p - 1, block, channels));
    }
    for (int l = 0; l < p; ++l) ar = slower(ar, ring_pass(m, rail(comm, l), nodes - 1, nodes - 1, sub, channels));
    return m.launch() + rs + ar + ag;
}

}  // namespace

AlgorithmInfo hierarchical_algorithm() {
    return AlgorithmInfo{"hierarchical",
                         "reduce-scatter inside servers, ring AllReduce across servers on every rail, all-gather "
                         "inside servers",
                         {CollOp::allreduce},
                         NcclFamily::ring,
                         "every phase is a ring, so its steps pay NCCL's ring latencies (NVLink inside a server, "
                         "NET between)",
                         hierarchical_requirement,
                         hierarchical_schedule,
                         hierarchical_estimate};
}

}  // namespace collsim
