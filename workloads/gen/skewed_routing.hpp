#pragma once
// Token-to-expert routing with a skewed, seeded expert popularity: the experts
// of a layer are ranked in a seeded random order and the k-th most popular is
// chosen with weight 1 / (k + 1)^skew (Zipf; skew 0 is uniform). Each token
// picks top_k distinct experts. Real MoE routers are imbalanced in this way
// (the reason for auxiliary load-balancing losses, Fedus et al., "Switch
// Transformers", 2021); the skew sets how much.
//
// The random numbers are splitmix64 (Steele et al., 2014), written out here so
// that a seed gives the same routing with every compiler and library.
#include <cstdint>
#include <vector>

namespace collsim::gen {

class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed) : state_(seed) {}
    uint64_t next();
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)

private:
    uint64_t state_;
};

// tokens[i][e]: how many of rank i's tokens go to expert e.
std::vector<std::vector<int64_t>> route_tokens(int ranks, int experts, int64_t tokens_per_rank, int top_k, double skew,
                                               SplitMix64& rng);

}  // namespace collsim::gen
