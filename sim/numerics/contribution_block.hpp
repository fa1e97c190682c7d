#pragma once
// The inputs of one block of elements. Every element of the global gradient
// is the sum of M contributions (M = the rank count, or for a comparison
// across rank counts a common multiple of them, so that every configuration
// reduces the same numbers). With n ranks, rank r holds contributions
// r*M/n .. (r+1)*M/n - 1 and adds them up locally, in order, before the
// collective: the micro-batches one GPU accumulates before the AllReduce.
// The exact sum adds the contributions in index order, whatever the ranks,
// so every configuration is measured against the same reference.
#include <cstdint>
#include <vector>

#include "sim/numerics/float_format.hpp"
#include "sim/numerics/inputs.hpp"

namespace collsim {

struct Accumulation {
    FloatFormat data = FloatFormat::fp32;   // inputs and the stored result
    FloatFormat accum = FloatFormat::fp32;  // partial sums
};

class ContributionBlock {
public:
    // Throws std::invalid_argument unless `ranks` divides `contributions`.
    ContributionBlock(const InputData& inputs, int contributions, int ranks, Accumulation acc);

    // Elements per block: all M rows of a block stay in the core's cache.
    std::size_t capacity() const { return capacity_; }
    // Generates elements first..first+count (count <= capacity()).
    void load(int64_t first, std::size_t count);

    // [rank] -> that rank's count inputs, in the data format.
    const float* const* rank_inputs() const { return rank_rows_.data(); }
    // The exact sum of each element (double, Neumaier-compensated) and the
    // sum of magnitudes the worst-case bound scales with.
    const double* exact() const { return exact_.data(); }
    const double* magnitude() const { return magnitude_.data(); }

private:
    void sum_exactly(std::size_t count);
    template <FloatFormat F>
    void sum_locally(std::size_t count);

    const InputData& inputs_;
    int contributions_, ranks_;
    Accumulation acc_;
    std::size_t capacity_;
    std::vector<float> scales_, values_, local_;  // values_: [contribution][element]; local_: [rank][element]
    std::vector<const float*> rank_rows_;
    std::vector<double> exact_, compensation_, magnitude_;
};

}  // namespace collsim
