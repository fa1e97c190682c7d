// Pairwise-exchange AllToAll: n-1 rounds; in round s rank i sends its block
// for rank i+s and receives rank i-s's block for itself, so each rank has one
// transfer in and one out at a time (no port is shared, unlike the direct
// algorithm). A rank starts round s+1 when its round-s send and receive are
// done, and a transfer starts when both ends are ready (a rendezvous). The own block is copied locally at the start. (With a power of two
// one can pair i with i XOR s instead; the shifted pairing works for any n.)
//
// Closed form: rank i ends round s when its receive from i-s and its send to
// i+s are done, each starting when both ends ended round s-1: T = launch +
// max(local copy, the longest such path); on a uniform fabric, (n-1) rounds of
// one block over a hop.
#include "algorithms/algorithm.hpp"

namespace collsim {

namespace {

Schedule alltoall_pairwise_schedule(const CollectiveCall& call, const CommLayout&) {
    const int n = call.ranks, channels = call.channels;
    const SplitBuffers buf{n, channels};
    Schedule s;
    s.algorithm = "alltoall_pairwise";
    s.ranks = n;
    s.channels = channels;
    s.chunks = buf.chunks();
    s.layout = buf.layout();
    auto bytes_of = [&](int block, int ch) { return piece(piece(call.bytes, n, block), channels, ch); };
    for (int ch = 0; ch < channels; ++ch) {
        for (int i = 0; i < n; ++i) s.local_copy(i, ch, buf.in(i, ch), buf.out(i, ch), bytes_of(i, ch));
        // Per rank, the steps that end its previous round.
        std::vector<std::vector<StepId>> round_end(static_cast<std::size_t>(n));
        for (int round = 1; round < n; ++round) {
            std::vector<StepId> sends(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) {
                const int to = wrap(i + round, n);
                // A rendezvous: both ends have finished their previous round.
                std::vector<StepId> deps = round_end[static_cast<std::size_t>(i)];
                for (StepId d : round_end[static_cast<std::size_t>(to)]) deps.push_back(d);
                sends[static_cast<std::size_t>(i)] = s.send(i, to, ch, buf.in(to, ch), bytes_of(to, ch), deps);
            }
            std::vector<std::vector<StepId>> next(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) {
                const int from = wrap(i - round, n);
                const auto& prev = round_end[static_cast<std::size_t>(i)];
                const StepId got =
                    s.receive(StepKind::copy, sends[static_cast<std::size_t>(from)], buf.out(from, ch), prev);
                next[static_cast<std::size_t>(i)] = {sends[static_cast<std::size_t>(i)], got};
            }
            round_end = std::move(next);
        }
    }
    return s;
}

Estimate alltoall_pairwise_estimate(const CollectiveCall& call, CostModel& m) {
    const int n = call.ranks;
    const Bytes bytes = largest_piece(largest_piece(call.bytes, n), call.channels);
    // done[i]: when rank i ended its last round, along the longest path.
    std::vector<Estimate> done(static_cast<std::size_t>(n));
    auto at = [&](int r) { return done[static_cast<std::size_t>(wrap(r, n))]; };
    for (int round = 1; round < n; ++round) {
        std::vector<Estimate> next(done.size());
        for (int i = 0; i < n; ++i) {
            const Estimate in = slower(at(i - round), at(i)) + m.send_channels(wrap(i - round, n), i, bytes, call.channels);
            const Estimate out = slower(at(i), at(i + round)) + m.send_channels(i, wrap(i + round, n), bytes, call.channels);
            next[static_cast<std::size_t>(i)] = slower(in, out);
        }
        done = std::move(next);
    }
    Estimate worst = m.local_copy(m.gpu(0), bytes, call.channels);
    for (const Estimate& e : done) worst = slower(worst, e);
    return m.launch() + worst;
}

}  // namespace

AlgorithmInfo alltoall_pairwise_algorithm() {
    return AlgorithmInfo{"alltoall_pairwise",
                         "pairwise-exchange AllToAll: n-1 rounds, rank i sends to i+s and receives from i-s",
                         {CollOp::alltoall},
                         NcclFamily::ring,
                         "each round is a point-to-point exchange, which NCCL runs on its ring kernel",
                         {},
                         alltoall_pairwise_schedule,
                         alltoall_pairwise_estimate};
}

}  // namespace collsim
