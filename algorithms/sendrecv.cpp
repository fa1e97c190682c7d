// Point-to-point send/receive as nccl-tests' sendrecv_perf runs it: every
// rank sends its buffer to the next rank and receives the previous rank's
// (with two ranks, one exchange; the pattern of pipeline parallelism). Each
// channel carries its share as one transfer.
//
// NCCL runs point-to-point operations on the ring kernel with the Simple
// protocol (its kernels were named ncclKernel_SendRecv_RING_SIMPLE before
// 2.19), so the steps pay the ring family's latencies.
//
// Closed form: every send runs at once on its own route:
// T = launch + the slowest send (its latency + bytes / bottleneck).
#include "algorithms/algorithm.hpp"

namespace collsim {

namespace {

Schedule sendrecv_schedule(const CollectiveCall& call, const CommLayout&) {
    const int n = call.ranks, channels = call.channels;
    const SplitBuffers buf{1, channels};
    Schedule s;
    s.algorithm = "sendrecv";
    s.ranks = n;
    s.channels = channels;
    s.chunks = buf.chunks();
    s.layout = buf.layout();
    for (int ch = 0; ch < channels; ++ch) {
        const Bytes bytes = piece(call.bytes, channels, ch);
        for (int r = 0; r < n; ++r) {
            if (n == 1) {
                s.local_copy(r, ch, buf.in(0, ch), buf.out(0, ch), bytes);
                continue;
            }
            const StepId sent = s.send(r, wrap(r + 1, n), ch, buf.in(0, ch), bytes);
            s.receive(StepKind::copy, sent, buf.out(0, ch));
        }
    }
    return s;
}

Estimate sendrecv_estimate(const CollectiveCall& call, CostModel& m) {
    const int n = call.ranks;
    const Bytes bytes = largest_piece(call.bytes, call.channels);
    if (n == 1) return m.launch() + m.local_copy(m.gpu(0), bytes, call.channels);
    std::vector<Transfer> all;
    for (int r = 0; r < n; ++r)
        for (int ch = 0; ch < call.channels; ++ch)
            all.push_back(Transfer{m.gpu(r, ch), m.gpu(wrap(r + 1, n), ch), bytes, ch});
    return m.launch() + m.concurrent(all);
}

}  // namespace

AlgorithmInfo sendrecv_algorithm() {
    return AlgorithmInfo{"sendrecv",
                         "point-to-point: every rank sends to the next and receives from the previous",
                         {CollOp::sendrecv},
                         NcclFamily::ring,
                         "NCCL runs send/recv on its ring kernel with Simple (ncclKernel_SendRecv_RING_SIMPLE)",
                         {},
                         sendrecv_schedule,
                         sendrecv_estimate};
}

}  // namespace collsim
