// NVLS (NVLink SHARP) AllReduce on an NVSwitch that reduces in the switch
// (the topology's nvswitch declares in_network_reduction: true), as NCCL
// runs it: the buffer is cut into one slice per rank; the slice's owner
// loads it through the switch's multimem address, so the switch adds every
// GPU's copy on the way (multimem.ld_reduce), and stores the sum back with
// one multicast write that the switch copies to every GPU (multimem.st).
// Modelled as: every rank sends its copy of the slice to the switch, the
// switch adds them (free: at line rate in the switch's ALUs) and returns the
// sum to the owner, the owner writes it to the switch, the switch copies it
// to every rank. Per GPU link that is (n+1)/n of the buffer each way, against
// 2(n-1)/n for a ring. Each channel's data flows in pipeline chunks; a rank
// streams its contributions one after another.
//
// NCCL's NVLS latency is one NVLink step (25 us Simple, v2.30.7), not one per
// stage: only the first transfer of each chunk pays the protocol step.
//
// Below 64 full chunks per channel and rank NCCL cuts its chunk, and each
// extra chunk costs its channel a fixed wait (nvls_chunks.hpp): that time is
// paid with the launch, in the schedule and the closed form alike.
//
// Closed form: T = launch + handshakes + the first chunk's trip (every rank's n slices up,
// then the last slice's way back, to the owner and out again) + (k-1) chunks
// x (n+1) slices over the busiest GPU link.
#include <fmt/format.h>

#include <numeric>

#include "algorithms/algorithm.hpp"
#include "algorithms/nvls_chunks.hpp"
#include "algorithms/nvls_steps.hpp"
#include "algorithms/reducing_switch.hpp"

namespace collsim {

namespace {

Unavailable nvls_requirement(CollOp, const CommLayout& comm) {
    if (reducing_nvswitch(*comm.topo, comm.gpus)) return std::nullopt;
    return fmt::format("nvls needs an nvswitch with in_network_reduction: true linked to every GPU of the "
                       "communicator; {} has none",
                       comm.topo->name());
}

int nvls_chunks(const CollectiveCall& call) {
    // Up to the switch, to the owner, back to the switch, out to every rank.
    return pipeline_chunks(call, largest_piece(call.bytes, call.channels), 4);
}

Schedule nvls_schedule(const CollectiveCall& call, const CommLayout& comm) {
    const int n = call.ranks, channels = call.channels, k = nvls_chunks(call);
    Schedule s;
    s.algorithm = "nvls";
    s.ranks = n;
    s.channels = channels;
    s.chunks = channels * k * n;
    s.switches = {*reducing_nvswitch(*comm.topo, comm.gpus)};
    s.handshakes = nvls_handshakes(call);
    const int sw = n;  // the switch's participant index
    std::vector<int> ranks(static_cast<std::size_t>(n));
    std::iota(ranks.begin(), ranks.end(), 0);
    for (int ch = 0; ch < channels; ++ch) {
        std::vector<StepId> streamed(static_cast<std::size_t>(n), kNoStep);  // each rank's last contribution
        for (int j = 0; j < k; ++j) {
            const Bytes chunk_bytes = piece(piece(call.bytes, channels, ch), k, j);
            for (int owner = 0; owner < n; ++owner) {
                const int chunk = (ch * k + j) * n + owner;
                const Bytes bytes = piece(chunk_bytes, n, owner);
                const StepId at_owner = switch_reduce(s, ranks, sw, owner, ch, chunk, bytes, streamed);
                const StepId stored = s.send(owner, sw, ch, chunk, bytes, {at_owner}, false);
                switch_multicast(s, ranks, sw, stored, ch, chunk, bytes);
            }
        }
    }
    return s;
}

// The closed form, and its steady state: every GPU's link to the switch busy
// both ways with n+1 slices of each of its k chunks.
FluidForm nvls_form(const CollectiveCall& call, CostModel& m, bool streams) {
    const int n = call.ranks, channels = call.channels, k = nvls_chunks(call);
    const CommLayout& comm = m.comm();
    const DeviceId sw = *reducing_nvswitch(*comm.topo, comm.gpus);
    const Bytes slice = largest_piece(largest_piece(largest_piece(call.bytes, channels), k), n);
    Estimate up, back, period;
    for (DeviceId g : comm.gpus) {
        // Going up, a rank's n slices (and its channels') share its link.
        up = slower(up, m.send(g, sw, slice * n, channels));
        const Estimate round_trip = m.send(sw, g, slice, channels, 0, false) + m.send(g, sw, slice, channels, 0, false) +
                                    m.send(sw, g, slice, channels, 0, false);
        back = slower(back, round_trip);
        period = slower(period, Estimate{Time{}, m.send(g, sw, slice * (n + 1), channels).bandwidth});
        period = slower(period, Estimate{Time{}, m.send(sw, g, slice * (n + 1), channels).bandwidth});
    }
    FluidForm f{m.launch() + Estimate{Time{}, nvls_handshakes(call)} + up + back + period * (k - 1),
                period.bandwidth * k, {}, {sw}};
    for (int ch = 0; streams && ch < channels; ++ch)
        for (int r = 0; r < n; ++r) {
            f.streams.push_back(FluidStream{r, n, ch, slice * (n + 1) * k});
            f.streams.push_back(FluidStream{n, r, ch, slice * (n + 1) * k});
        }
    return f;
}

Estimate nvls_estimate(const CollectiveCall& call, CostModel& m) { return nvls_form(call, m, false).closed; }

}  // namespace

AlgorithmInfo nvls_algorithm() {
    AlgorithmInfo a{"nvls",
                         "NVLink SHARP AllReduce: the NVSwitch adds every GPU's slice and multicasts the sum",
                         {CollOp::allreduce},
                         NcclFamily::nvls,
                         "NCCL's NVLS",
                         nvls_requirement,
                         nvls_schedule,
                         nvls_estimate};
    a.fluid = nvls_form;
    return a;
}

}  // namespace collsim
