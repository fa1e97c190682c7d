#include "workloads/gen/skewed_routing.hpp"

#include <cmath>
#include <numeric>

namespace collsim::gen {

uint64_t SplitMix64::next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::vector<std::vector<int64_t>> route_tokens(int ranks, int experts, int64_t tokens_per_rank, int top_k, double skew,
                                               SplitMix64& rng) {
    // Popularity order: a seeded Fisher-Yates shuffle of the experts.
    std::vector<int> order(static_cast<std::size_t>(experts));
    std::iota(order.begin(), order.end(), 0);
    for (int i = experts - 1; i > 0; --i)
        std::swap(order[static_cast<std::size_t>(i)],
                  order[static_cast<std::size_t>(rng.next() % static_cast<uint64_t>(i + 1))]);
    std::vector<double> weight(static_cast<std::size_t>(experts));
    for (int k = 0; k < experts; ++k)
        weight[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = 1.0 / std::pow(k + 1.0, skew);
    std::vector<std::vector<int64_t>> counts(static_cast<std::size_t>(ranks),
                                             std::vector<int64_t>(static_cast<std::size_t>(experts), 0));
    std::vector<double> w(weight.size());
    for (int r = 0; r < ranks; ++r)
        for (int64_t t = 0; t < tokens_per_rank; ++t) {
            // top_k draws without replacement: a chosen expert's weight drops to zero.
            w = weight;
            double total = std::accumulate(w.begin(), w.end(), 0.0);
            for (int k = 0; k < top_k; ++k) {
                double u = rng.uniform() * total;
                std::size_t e = 0;
                while (e + 1 < w.size() && (u >= w[e] || w[e] == 0)) u -= w[e++];
                ++counts[static_cast<std::size_t>(r)][e];
                total -= w[e];
                w[e] = 0;
            }
        }
    return counts;
}

}  // namespace collsim::gen
