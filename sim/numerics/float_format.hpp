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

template <FloatFormat F>
inline float round_as(float x) {
    if constexpr (F == FloatFormat::fp32) return x;
    else if constexpr (F == FloatFormat::bf16) return round_bf16(x);
    else return round_to(FloatFormat::fp16, x);
}

// Unit roundoff u = 2^-p (p = significand bits): fp32 2^-24, bf16 2^-8, fp16 2^-11.
double unit_roundoff(FloatFormat f);

// Distance in units in the last place between two values of the format
// (counted along the format's ordered bit patterns, across zero).
int64_t ulp_distance(FloatFormat f, float a, float b);

}  // namespace collsim
