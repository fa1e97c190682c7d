#include "sim/numerics/inputs.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sim/core/random.hpp"
#include "sim/numerics/vector_clones.hpp"

namespace collsim {

namespace {
double unit(uint64_t h) { return (static_cast<double>(h >> 11) + 0.5) * 0x1.0p-53; }
}  // namespace

std::optional<InputDistribution> input_distribution_from(std::string_view s) {
    if (s == "normal") return InputDistribution::normal;
    if (s == "lognormal") return InputDistribution::lognormal;
    if (s == "gradients") return InputDistribution::gradients;
    return std::nullopt;
}

std::string_view to_string(InputDistribution d) {
    switch (d) {
        case InputDistribution::normal: return "normal";
        case InputDistribution::lognormal: return "lognormal";
        case InputDistribution::gradients: return "gradients";
    }
    return "?";
}

InputData::InputData(InputDistribution dist, uint64_t seed, FloatFormat format)
    : dist_(dist), seed_(mix64(seed + 0x9e3779b97f4a7c15ULL)), format_(format), normal_(kTable) {
    // Box-Muller on a seeded counter: the same table on every platform (unlike
    // std::normal_distribution, whose algorithm the standard leaves open).
    for (std::size_t i = 0; i < kTable; i += 2) {
        const double u1 = unit(mix64(seed_ + 2 * i)), u2 = unit(mix64(seed_ + 2 * i + 1));
        const double r = std::sqrt(-2.0 * std::log(u1));
        normal_[i] = static_cast<float>(r * std::cos(2 * std::numbers::pi * u2));
        normal_[i + 1] = static_cast<float>(r * std::sin(2 * std::numbers::pi * u2));
    }
    deviate_ = normal_;
    if (dist_ == InputDistribution::lognormal)
        for (float& d : deviate_) d = std::exp(d);
}

void InputData::element_scales(int64_t first, std::size_t count, float* out) const {
    for (std::size_t i = 0; i < count; ++i) {
        if (dist_ != InputDistribution::gradients) {
            out[i] = 1.0f;
            continue;
        }
        const uint64_t e = mix64(seed_ ^ (static_cast<uint64_t>(first + static_cast<int64_t>(i)) * 0xa0761d6478bd642fULL));
        out[i] = std::exp(2.0f * normal_[e & (kTable - 1)]);
    }
}

namespace {
template <FloatFormat F>
COLLSIM_VECTOR_CLONES void fill_as(const std::vector<float>& deviate, uint64_t r, int64_t first, std::size_t count, const float* scales,
             float* out, std::size_t mask) {
    // Three passes per piece, each a plain loop: the hashes, the table
    // look-ups (one at a time: there is no gather before AVX2), then the
    // arithmetic, which vectorises. (Written as one loop, GCC split it in two
    // and computed every hash twice.)
    constexpr std::size_t kPiece = 256;
    uint64_t hash[kPiece];
    for (std::size_t p = 0; p < count; p += kPiece) {
        const std::size_t n = std::min(kPiece, count - p);
        for (std::size_t i = 0; i < n; ++i)
            hash[i] = mix64(r ^ (static_cast<uint64_t>(first + static_cast<int64_t>(p + i)) * 0x9e3779b97f4a7c15ULL));
        for (std::size_t i = 0; i < n; ++i) out[p + i] = deviate[hash[i] & mask];
        // A table deviate, spread by a fine uniform factor so values are not
        // drawn from a finite set.
        for (std::size_t i = 0; i < n; ++i) {
            const auto bits = static_cast<int32_t>((hash[i] >> 40) & 0xffffff);
            const float spread = 1.0f + static_cast<float>(bits) * 0x1.0p-30f;
            out[p + i] = round_as<F>(out[p + i] * spread * scales[p + i]);
        }
    }
}
}  // namespace

void InputData::fill(int contribution, int64_t first, std::size_t count, const float* scales, float* out) const {
    const uint64_t r = seed_ ^ (static_cast<uint64_t>(contribution) * 0xd1b54a32d192ed03ULL);
    switch (format_) {
        case FloatFormat::fp32: fill_as<FloatFormat::fp32>(deviate_, r, first, count, scales, out, kTable - 1); break;
        case FloatFormat::bf16: fill_as<FloatFormat::bf16>(deviate_, r, first, count, scales, out, kTable - 1); break;
        case FloatFormat::fp16: fill_as<FloatFormat::fp16>(deviate_, r, first, count, scales, out, kTable - 1); break;
    }
}

float InputData::value(int contribution, int64_t element) const {
    float scale, out;
    element_scales(element, 1, &scale);
    fill(contribution, element, 1, &scale, &out);
    return out;
}

}  // namespace collsim
