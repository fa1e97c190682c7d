#pragma once
// Seeded inputs for reduction-order studies. Values come from a counter-based
// generator (a hash of seed, contribution and element), so any element of any
// contribution can be produced on demand in any order: 1,024 ranks x 10^7
// elements never have to sit in memory at once. Contribution r is rank r's
// input when each rank holds one (see contribution_block.hpp).
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/numerics/float_format.hpp"

namespace collsim {

enum class InputDistribution {
    normal,     // N(0, 1): sums with cancellation
    lognormal,  // exp(N(0, 1)): positive, no cancellation
    gradients,  // N(0, 1) per rank times a per-element log-normal scale shared by ranks
};

std::optional<InputDistribution> input_distribution_from(std::string_view s);
std::string_view to_string(InputDistribution d);

class InputData {
public:
    InputData(InputDistribution dist, uint64_t seed, FloatFormat format);
    // Per-element factors shared by every rank (1 except for gradients);
    // compute once per block of elements, then fill each rank from them.
    void element_scales(int64_t first, std::size_t count, float* out) const;
    // Contribution `contribution` to elements first.., already rounded to the format.
    void fill(int contribution, int64_t first, std::size_t count, const float* scales, float* out) const;
    float value(int contribution, int64_t element) const;

private:
    static constexpr std::size_t kTable = 1 << 16;
    InputDistribution dist_;
    uint64_t seed_;
    FloatFormat format_;
    std::vector<float> deviate_;  // kTable deviates of the distribution (before element scales)
    std::vector<float> normal_;   // kTable standard normal deviates
};

}  // namespace collsim
