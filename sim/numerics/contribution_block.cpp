#include "sim/numerics/contribution_block.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/numerics/vector_clones.hpp"

namespace collsim {

namespace {
// 512 KiB of contributions per block: a quarter of this machine's L2, so the
// generated values are still in cache when the reduction reads them.
constexpr std::size_t kBlockValues = std::size_t{1} << 17;
constexpr std::size_t kMinBlock = 64, kMaxBlock = 4096;
}  // namespace

ContributionBlock::ContributionBlock(const InputData& inputs, int contributions, int ranks, Accumulation acc)
    : inputs_(inputs), contributions_(contributions), ranks_(ranks), acc_(acc) {
    if (ranks < 1 || contributions < ranks || contributions % ranks != 0)
        throw std::invalid_argument("contribution block: the rank count must divide the contribution count");
    const auto m = static_cast<std::size_t>(contributions);
    capacity_ = std::clamp(kBlockValues / m, kMinBlock, kMaxBlock);
    scales_.resize(capacity_);
    values_.resize(m * capacity_);
    exact_.resize(capacity_);
    compensation_.resize(capacity_);
    magnitude_.resize(capacity_);
    rank_rows_.resize(static_cast<std::size_t>(ranks));
    if (contributions == ranks) {
        for (std::size_t r = 0; r < rank_rows_.size(); ++r) rank_rows_[r] = values_.data() + r * capacity_;
    } else {
        local_.resize(static_cast<std::size_t>(ranks) * capacity_);
        for (std::size_t r = 0; r < rank_rows_.size(); ++r) rank_rows_[r] = local_.data() + r * capacity_;
    }
}

void ContributionBlock::load(int64_t first, std::size_t count) {
    inputs_.element_scales(first, count, scales_.data());
    for (int m = 0; m < contributions_; ++m)
        inputs_.fill(m, first, count, scales_.data(), values_.data() + static_cast<std::size_t>(m) * capacity_);
    sum_exactly(count);
    if (local_.empty()) return;
    switch (acc_.accum) {
        case FloatFormat::fp32: sum_locally<FloatFormat::fp32>(count); break;
        case FloatFormat::bf16: sum_locally<FloatFormat::bf16>(count); break;
        case FloatFormat::fp16: sum_locally<FloatFormat::fp16>(count); break;
    }
}

// Compensated summation in double, in contribution order: Neumaier's
// method, with each addition's rounding error taken by Knuth's branch-free
// TwoSum (the same exact error as Neumaier's compare-and-subtract, without a
// branch that mispredicts on random signs), so the loop vectorises.
COLLSIM_VECTOR_CLONES void ContributionBlock::sum_exactly(std::size_t count) {
    double* __restrict sum = exact_.data();
    double* __restrict comp = compensation_.data();
    double* __restrict mag = magnitude_.data();
    std::fill_n(sum, count, 0.0);
    std::fill_n(comp, count, 0.0);
    std::fill_n(mag, count, 0.0);
    for (std::size_t m = 0; m < static_cast<std::size_t>(contributions_); ++m) {
        const float* __restrict row = values_.data() + m * capacity_;
        for (std::size_t i = 0; i < count; ++i) {
            const double v = row[i], s = sum[i] + v, v_part = s - sum[i];
            comp[i] += (sum[i] - (s - v_part)) + (v - v_part);
            sum[i] = s;
            mag[i] += std::fabs(v);
        }
    }
    for (std::size_t i = 0; i < count; ++i) sum[i] += comp[i];
}

// Each rank's share, added in index order with every partial sum rounded to
// the accumulation format, then stored in the data format like any gradient.
template <FloatFormat F>
void ContributionBlock::sum_locally(std::size_t count) {
    const std::size_t per_rank = static_cast<std::size_t>(contributions_ / ranks_);
    for (std::size_t r = 0; r < static_cast<std::size_t>(ranks_); ++r) {
        float* __restrict out = local_.data() + r * capacity_;
        const float* first = values_.data() + r * per_rank * capacity_;
        std::copy_n(first, count, out);
        for (std::size_t j = 1; j < per_rank; ++j) {
            const float* __restrict row = first + j * capacity_;
            for (std::size_t i = 0; i < count; ++i) out[i] = round_as<F>(out[i] + row[i]);
        }
        if (acc_.data != acc_.accum)
            for (std::size_t i = 0; i < count; ++i) out[i] = round_to(acc_.data, out[i]);
    }
}

}  // namespace collsim
