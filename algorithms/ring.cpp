// Ring AllReduce: a reduce-scatter then an all-gather around the ring of ranks,
// 2(n-1) steps on each channel. The buffer is cut into n chunks per channel;
// in reduce-scatter step s rank i passes chunk (i - s) mod n to rank i+1, which
// adds its own contribution, so after n-1 steps rank i owns the full sum of
// chunk i+1; all-gather then circulates the finished chunks.
#include "algorithms/algorithm.hpp"

namespace collsim {

namespace {

int mod(int a, int n) { return ((a % n) + n) % n; }

Schedule ring_allreduce(const CollectiveCall& call) {
    const int n = call.ranks, channels = call.channels;
    Schedule s;
    s.algorithm = "ring";
    s.ranks = n;
    s.channels = channels;
    s.chunks = n * channels;
    if (n < 2) return s;
    for (int ch = 0; ch < channels; ++ch) {
        const Bytes channel_bytes = piece(call.bytes, channels, ch);
        auto chunk_id = [&](int k) { return ch * n + mod(k, n); };
        auto chunk_bytes = [&](int k) { return piece(channel_bytes, n, mod(k, n)); };
        // last[i]: the step on rank i that the next send of rank i waits for.
        std::vector<StepId> last(static_cast<std::size_t>(n), UINT32_MAX);
        auto deps_of = [&](int rank) {
            StepId d = last[static_cast<std::size_t>(rank)];
            return d == UINT32_MAX ? std::vector<StepId>{} : std::vector<StepId>{d};
        };
        for (int phase = 0; phase < 2; ++phase) {
            const StepKind combine = phase == 0 ? StepKind::reduce : StepKind::copy;
            for (int step = 0; step < n - 1; ++step) {
                std::vector<StepId> sends(static_cast<std::size_t>(n));
                for (int i = 0; i < n; ++i) {
                    const int k = phase == 0 ? i - step : i + 1 - step;
                    sends[static_cast<std::size_t>(i)] =
                        s.add(Step{StepKind::send, i, mod(i + 1, n), ch, chunk_id(k), chunk_bytes(k), deps_of(i)});
                }
                for (int i = 0; i < n; ++i) {
                    const int from = mod(i - 1, n);
                    const int k = phase == 0 ? from - step : from + 1 - step;
                    last[static_cast<std::size_t>(i)] = s.add(Step{combine, i, from, ch, chunk_id(k), chunk_bytes(k),
                                                                   {sends[static_cast<std::size_t>(from)]}});
                }
            }
        }
    }
    return s;
}

}  // namespace

AlgorithmInfo ring_algorithm() {
    return AlgorithmInfo{"ring", "ring over the communicator in rank order, one ring per channel",
                         {CollOp::allreduce}, NcclFamily::ring, ring_allreduce};
}

}  // namespace collsim
