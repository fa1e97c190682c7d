// Direct AllToAll, as NCCL runs it (a group of sends and receives to every
// peer at once): rank i sends its block j to rank j for every j != i, all at
// the same time, and copies its own block locally. Blocks are cut over
// channels.
//
// Closed form: every transfer starts together; each link is divided among the
// transfers that cross it, T = launch + the slowest transfer (on one
// NVSwitch: (n-1) blocks through each GPU's port). Past kAggregateAbove
// transfers, over classes of equivalent pairs where the machine is symmetric
// (alltoall_classes.hpp says why that is exact and where it is not).
#include <fmt/format.h>

#include <optional>
#include <variant>

#include "algorithms/algorithm.hpp"
#include "algorithms/alltoall_classes.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace collsim {

namespace {

using limits::kMaxAllToAllTransfers;

// Past this many transfers the closed form and the fluid time come from the
// pairs' classes (alltoall_classes.hpp) where the machine's symmetry makes
// them exact: each pair's route costs ~30 us to find (RouteSearch), so 2^16
// transfers are ~2 s, and 1,024 GPUs' million were 33 s.
constexpr int64_t kAggregateAbove = int64_t{1} << 16;

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

// The classes' closed form and fluid time, where they exist. No streams: the
// fill holds the classes' max-min time, so the schedule waits that long.
std::optional<FluidForm> aggregated_form(const CollectiveCall& call, CostModel& m, Bytes bytes, const Estimate& copy,
                                         std::string* why_not) {
    auto classes = alltoall_classes(call, m, bytes);
    if (auto* why = std::get_if<std::string>(&classes)) {
        *why_not = *why;
        return std::nullopt;
    }
    const AllToAllClasses& c = std::get<AllToAllClasses>(classes);
    const Estimate body = slower(classes_concurrent(c), copy);
    const Time fluid = std::max(classes_fluid_time(c), copy.bandwidth);
    FluidForm f{m.launch() + body, body.bandwidth - fluid, {}, {}};
    f.reductions.push_back(fmt::format(
        "alltoall: {} transfers as {} classes of equivalent pairs ({} routes), rates by max-min over the classes on "
        "pooled links of each role; equal-cost paths taken as evenly loaded (ECMP hash collisions not modelled: "
        "up to {:.0f}% faster than every pair on its hashed route where the hashed links bind, as on oversubscribed "
        "fat-trees), and not run as streams on the network (no link traffic, faults and other traffic unseen)",
        int64_t{call.ranks} * (call.ranks - 1) * call.channels, c.classes.size(), c.routes, kClassesFastBy * 100));
    return f;
}

// The closed form; its steady state is all of it but the launch and the
// latencies: every transfer and every rank's local copy at once.
FluidForm alltoall_direct_form(const CollectiveCall& call, CostModel& m, bool streams) {
    const int n = call.ranks;
    const Bytes bytes = largest_piece(largest_piece(call.bytes, n), call.channels);
    const Estimate copy = m.local_copy(m.gpu(0), bytes, call.channels);
    // Every pair is a transfer with its own route (ECMP hashes each pair
    // apart), so memory grows as n^2: about 1.1 GiB per million transfers.
    const int64_t transfers = int64_t{n} * (n - 1) * call.channels;
    std::string why_not = "other traffic or faults act on the network";
    if (transfers > kAggregateAbove && call.network_alone)
        if (auto f = aggregated_form(call, m, bytes, copy, &why_not)) return *f;
    if (transfers > kMaxAllToAllTransfers)
        throw InputError(SourceLocation{}, "--ranks",
                         fmt::format("an AllToAll of at most {} transfers where its pairs cannot be aggregated "
                                     "(ranks x (ranks-1) x channels: the AllToAll transfer limit)",
                                     kMaxAllToAllTransfers),
                         fmt::format("{} ranks x {} x {} channel(s) = {} transfers, not aggregated: {}", n, n - 1,
                                     call.channels, transfers, why_not));
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
