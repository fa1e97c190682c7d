// Direct AllToAll, as NCCL runs it (a group of sends and receives to every
// peer at once): rank i sends its block j to rank j for every j != i, all at
// the same time, and copies its own block locally. Blocks are cut over
// channels.
//
// Closed form: every transfer starts together; each link is divided among the
// transfers that cross it, T = launch + the slowest transfer (on one
// NVSwitch: (n-1) blocks through each GPU's port).
#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace collsim {

namespace {

// The most transfers a direct AllToAll's closed form and fluid streams hold
// (limits.hpp): 2,048 ranks on one channel (about 4.5 GiB).
using limits::kMaxAllToAllTransfers;

Schedule alltoall_direct_schedule(const CollectiveCall& call, const CommLayout&) {
    const int n = call.ranks, channels = call.channels;
    const SplitBuffers buf{n, channels};
    Schedule s;
    s.algorithm = "alltoall";
    s.ranks = n;
    s.channels = channels;
    s.chunks = buf.chunks();
    s.layout = buf.layout();
    for (int ch = 0; ch < channels; ++ch)
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                const Bytes bytes = piece(piece(call.bytes, n, j), channels, ch);
                if (i == j) {
                    s.local_copy(i, ch, buf.in(i, ch), buf.out(i, ch), bytes);
                    continue;
                }
                const StepId sent = s.send(i, j, ch, buf.in(j, ch), bytes);
                s.receive(StepKind::copy, sent, buf.out(i, ch));
            }
    return s;
}

// The closed form; its steady state is all of it but the launch and the
// latencies: every transfer and every rank's local copy at once.
FluidForm alltoall_direct_form(const CollectiveCall& call, CostModel& m, bool streams) {
    const int n = call.ranks;
    // Every pair is a transfer with its own route (ECMP hashes each pair
    // apart), so memory grows as n^2: about 1.1 GiB per million transfers.
    const int64_t transfers = int64_t{n} * (n - 1) * call.channels;
    if (transfers > kMaxAllToAllTransfers)
        throw InputError(SourceLocation{}, "--ranks",
                         fmt::format("an AllToAll of at most {} transfers (ranks x (ranks-1) x channels; pairs are not "
                                     "aggregated: the AllToAll transfer limit)", kMaxAllToAllTransfers),
                         fmt::format("{} ranks x {} x {} channel(s) = {} transfers", n, n - 1, call.channels, transfers));
    const Bytes bytes = largest_piece(largest_piece(call.bytes, n), call.channels);
    const Estimate copy = m.local_copy(m.gpu(0), bytes, call.channels);
    std::vector<Transfer> all;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            for (int ch = 0; ch < call.channels && i != j; ++ch)
                all.push_back(Transfer{m.gpu(i, ch), m.gpu(j, ch), bytes, ch});
    const Estimate body = n == 1 ? copy : slower(m.concurrent(all), copy);
    FluidForm f{m.launch() + body, body.bandwidth, {}, {}};
    for (int i = 0; streams && i < n; ++i)
        for (int ch = 0; ch < call.channels; ++ch) {
            f.streams.push_back(FluidStream{i, kCopyStream, ch, bytes});
            for (int j = 0; j < n; ++j)
                if (j != i) f.streams.push_back(FluidStream{i, j, ch, bytes});
        }
    return f;
}

Estimate alltoall_direct_estimate(const CollectiveCall& call, CostModel& m) {
    return alltoall_direct_form(call, m, false).closed;
}

}  // namespace

AlgorithmInfo alltoall_direct_algorithm() {
    AlgorithmInfo a{"alltoall",
                         "direct AllToAll: every rank sends each peer its block at once (NCCL's grouped send/recv)",
                         {CollOp::alltoall},
                         NcclFamily::ring,
                         "NCCL runs AllToAll as grouped send/recv on its ring kernel with Simple",
                         {},
                         alltoall_direct_schedule,
                         alltoall_direct_estimate};
    a.fluid = alltoall_direct_form;
    return a;
}

}  // namespace collsim
