// Recursive halving-doubling AllReduce (Rabenseifner): a reduce-scatter by
// recursive halving, then an all-gather by recursive doubling, over the
// largest power of two p <= n ranks. With n = p + r, the usual fix-up folds
// the first 2r ranks in pairs first: even rank 2i sends its whole buffer to
// 2i+1, which adds it and takes part in its place; at the end 2i+1 sends the
// result back.
//
// In halving round k (distance d = p / 2^(k+1)) participant v exchanges half
// of its current region with v XOR d: it keeps the lower half when bit d of v
// is clear and adds the partner's copy of that half; after log2(p) rounds v
// holds block v summed over all ranks. Doubling reverses it. The buffer is
// p blocks per channel; each block moves as its own transfer, and a rank
// starts a round once its previous round's receives are done.
//
// Closed form: a rank's round k ends when both it and its partner have
// finished round k-1 (the transfer is a rendezvous), the partner's d blocks
// have crossed the hop and (while halving) been added: T = launch + the longest such path over the
// 2 log2(p) rounds and the fix-ups. On a uniform fabric that is
// 2 log2(p) hop latencies + 2 (p-1)/p S over the bandwidth + (p-1)/p S of
// reduction (+ the fix-ups: S each way).
#include "algorithms/algorithm.hpp"

namespace collsim {

namespace {

struct Fold {
    int n, p, r;
    explicit Fold(int ranks) : n(ranks), p(1), r(0) {
        while (p * 2 <= n) p *= 2;
        r = n - p;
    }
    int rank_of(int v) const { return v < r ? 2 * v + 1 : v + r; }
};

Schedule rhd_schedule(const CollectiveCall& call, const CommLayout&) {
    const Fold f(call.ranks);
    const int channels = call.channels, p = f.p;
    Schedule s;
    s.algorithm = "rhd";
    s.ranks = f.n;
    s.channels = channels;
    s.chunks = p * channels;
    if (f.n < 2) return s;
    for (int ch = 0; ch < channels; ++ch) {
        const Bytes channel_bytes = piece(call.bytes, channels, ch);
        auto chunk = [&](int block) { return block * channels + ch; };
        auto bytes = [&](int block) { return piece(channel_bytes, p, block); };
        // round_end[rank]: its last receive so far; a rank starts a round
        // when its previous round is over, as MPI's sendrecv rounds do.
        std::vector<StepId> round_end(static_cast<std::size_t>(f.n), kNoStep);
        auto after = [&](int rank) {
            const StepId d = round_end[static_cast<std::size_t>(rank)];
            return d == kNoStep ? std::vector<StepId>{} : std::vector<StepId>{d};
        };
        // A transfer starts when both ends have finished their previous round
        // (a rendezvous: the receiver has posted its receive).
        auto both = [&](int a, int b) {
            std::vector<StepId> deps = after(a);
            for (StepId d : after(b)) deps.push_back(d);
            return deps;
        };
        struct Move {
            int from, to, lo, len;
        };
        // One round: every move's sends first, then its receives, one after
        // another.
        auto run_round = [&](const std::vector<Move>& moves, StepKind kind) {
            std::vector<std::vector<StepId>> sent(moves.size());
            for (std::size_t i = 0; i < moves.size(); ++i)
                for (int blk = moves[i].lo; blk < moves[i].lo + moves[i].len; ++blk)
                    sent[i].push_back(
                        s.send(moves[i].from, moves[i].to, ch, chunk(blk), bytes(blk), both(moves[i].from, moves[i].to)));
            for (std::size_t i = 0; i < moves.size(); ++i) {
                std::vector<StepId> prev = after(moves[i].to);
                for (int k = 0; k < moves[i].len; ++k) {
                    const StepId got = s.receive(kind, sent[i][static_cast<std::size_t>(k)], chunk(moves[i].lo + k), prev);
                    prev = {got};
                }
                round_end[static_cast<std::size_t>(moves[i].to)] = prev.front();
            }
        };
        std::vector<Move> fold_in, fold_out;
        for (int i = 0; i < f.r; ++i) {
            fold_in.push_back({2 * i, 2 * i + 1, 0, p});
            fold_out.push_back({2 * i + 1, 2 * i, 0, p});
        }
        run_round(fold_in, StepKind::reduce);
        std::vector<int> lo(static_cast<std::size_t>(p), 0);
        for (int d = p / 2; d >= 1; d /= 2) {  // halving
            std::vector<Move> moves;
            std::vector<int> next(lo);
            for (int v = 0; v < p; ++v) {
                const int w = v ^ d, base = lo[static_cast<std::size_t>(v)];
                // v sends the half that w keeps.
                moves.push_back({f.rank_of(v), f.rank_of(w), (w & d) == 0 ? base : base + d, d});
                next[static_cast<std::size_t>(v)] = (v & d) == 0 ? base : base + d;
            }
            run_round(moves, StepKind::reduce);
            lo = std::move(next);
        }
        for (int d = 1; d < p; d *= 2) {  // doubling
            std::vector<Move> moves;
            std::vector<int> next(lo);
            for (int v = 0; v < p; ++v) {
                const int w = v ^ d;
                moves.push_back({f.rank_of(v), f.rank_of(w), lo[static_cast<std::size_t>(v)], d});
                next[static_cast<std::size_t>(v)] = std::min(lo[static_cast<std::size_t>(v)], lo[static_cast<std::size_t>(w)]);
            }
            run_round(moves, StepKind::copy);
            lo = std::move(next);
        }
        run_round(fold_out, StepKind::copy);
    }
    return s;
}

Estimate rhd_estimate(const CollectiveCall& call, CostModel& m) {
    const Fold f(call.ranks);
    const int channels = call.channels;
    if (f.n < 2) return m.launch();
    const Bytes block = largest_piece(largest_piece(call.bytes, channels), f.p);
    // done[rank]: when the rank's last round ended, along its longest path.
    std::vector<Estimate> done(static_cast<std::size_t>(f.n));
    // b receives `blocks` blocks from a, adding them when `reduce`.
    auto exchange = [&](std::vector<Estimate>& next, int a, int b, int blocks, bool reduce) {
        const DeviceId gb = m.gpu(b);
        Estimate t = slower(done[static_cast<std::size_t>(a)], done[static_cast<std::size_t>(b)]) +
                     m.send_channels(a, b, block * blocks, channels);
        if (reduce) t += m.reduce_steps(gb, block, blocks, channels);
        next[static_cast<std::size_t>(b)] = t;
    };
    std::vector<Estimate> next = done;
    for (int i = 0; i < f.r; ++i) exchange(next, 2 * i, 2 * i + 1, f.p, true);
    done = next;
    for (int pass = 0; pass < 2; ++pass) {
        for (int d = pass == 0 ? f.p / 2 : 1; pass == 0 ? d >= 1 : d < f.p; d = pass == 0 ? d / 2 : d * 2) {
            next = done;
            for (int v = 0; v < f.p; ++v) exchange(next, f.rank_of(v ^ d), f.rank_of(v), d, pass == 0);
            done = next;
        }
    }
    for (int i = 0; i < f.r; ++i) exchange(done, 2 * i + 1, 2 * i, f.p, false);
    Estimate worst = done[0];
    for (const Estimate& e : done) worst = slower(worst, e);
    return m.launch() + worst;
}

}  // namespace

AlgorithmInfo rhd_algorithm() {
    return AlgorithmInfo{"rhd",
                         "recursive halving-doubling AllReduce (Rabenseifner), non-powers of two folded in pairs",
                         {CollOp::allreduce},
                         NcclFamily::tree,
                         "NCCL has no halving-doubling; its tree is the other log-depth AllReduce, whose per-step "
                         "latencies fit log2(n) exchanges best",
                         {},
                         rhd_schedule,
                         rhd_estimate};
}

}  // namespace collsim
