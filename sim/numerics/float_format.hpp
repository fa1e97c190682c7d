#pragma once
// The floating-point formats a reduction runs in. Values travel as float and
// are rounded to the format after every operation, which is exactly what a
// GPU does when it stores each partial sum in that format.
#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>

namespace collsim {

enum class FloatFormat { fp32, bf16, fp16 };

std::optional<FloatFormat> float_format_from(std::string_view s);
std::string_view to_string(FloatFormat f);
std::string_view float_format_choices();

// Round-to-nearest-even from float to the format, returned as a float that
// holds the format's value exactly (fp16 overflows to infinity like the hardware).
float round_to(FloatFormat f, float x);

// bf16 is the top 16 bits of a float: round the low 16 away, to nearest even.
// Inline so the reduction loops vectorise.
inline float round_bf16(float x) {
    uint32_t u = std::bit_cast<uint32_t>(x);
    const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;
    return (u & 0x7f800000u) == 0x7f800000u ? x : std::bit_cast<float>(rounded);  // inf and NaN pass through
}

// fp16: 10 fraction bits, exponent range 2^-14..2^15, subnormals down to
// 2^-24. In the normal range, round the low 13 bits of the float away like
// bf16; below 2^-14 the quantum is 2^-24, and adding 0.5 (whose float ulp is
// 2^-24) rounds to it, to nearest even; past 65504 (the largest half) lies
// infinity, as on the hardware. Every path is computed and picked by bit
// masks: with ?: GCC branched and the loops stayed scalar (7x slower).
// Checked against frexp/nearbyint rounding on all 2^32 floats.
inline float round_fp16(float x) {
    const uint32_t u = std::bit_cast<uint32_t>(x), sign = u & 0x80000000u, mag = u & 0x7fffffffu;
    const uint32_t normal = (mag + 0xfffu + ((mag >> 13) & 1u)) & ~0x1fffu;
    const uint32_t subnormal = std::bit_cast<uint32_t>((std::bit_cast<float>(mag) + 0.5f) - 0.5f);
    const uint32_t is_subnormal = 0u - static_cast<uint32_t>(mag < 0x38800000u);  // below 2^-14
    const uint32_t overflows = 0u - static_cast<uint32_t>(normal > 0x477fe000u);   // past 65504
    const uint32_t passes = 0u - static_cast<uint32_t>(mag >= 0x7f800000u);       // inf and NaN
    uint32_t r = (subnormal & is_subnormal) | (normal & ~is_subnormal);
    r = (0x7f800000u & overflows) | (r & ~overflows);
    return std::bit_cast<float>((u & passes) | ((r | sign) & ~passes));
}

template <FloatFormat F>
inline float round_as(float x) {
    if constexpr (F == FloatFormat::fp32) return x;
    else if constexpr (F == FloatFormat::bf16) return round_bf16(x);
    else return round_fp16(x);
}

// Unit roundoff u = 2^-p (p = significand bits): fp32 2^-24, bf16 2^-8, fp16 2^-11.
double unit_roundoff(FloatFormat f);

// Distance in units in the last place between two values of the format
// (counted along the format's ordered bit patterns, across zero).
int64_t ulp_distance(FloatFormat f, float a, float b);

}  // namespace collsim
