#include "sim/numerics/float_format.hpp"

#include <bit>
#include <cmath>

namespace collsim {

std::optional<FloatFormat> float_format_from(std::string_view s) {
    if (s == "fp32" || s == "float") return FloatFormat::fp32;
    if (s == "bf16" || s == "bfloat16") return FloatFormat::bf16;
    if (s == "fp16" || s == "half") return FloatFormat::fp16;
    return std::nullopt;
}

std::string_view to_string(FloatFormat f) {
    switch (f) {
        case FloatFormat::fp32: return "fp32";
        case FloatFormat::bf16: return "bf16";
        case FloatFormat::fp16: return "fp16";
    }
    return "?";
}

std::string_view float_format_choices() { return "one of fp32, bf16, fp16"; }

namespace {
int64_t ordinal(uint32_t bits, int sign_shift) {
    const int64_t mag = bits & ((uint32_t{1} << sign_shift) - 1);
    return (bits >> sign_shift) & 1 ? -mag : mag;
}

uint16_t fp16_bits(float v) {
    const uint32_t sign = std::signbit(v) ? 0x8000u : 0;
    const float a = std::fabs(v);
    if (std::isinf(a)) return static_cast<uint16_t>(sign | 0x7c00u);
    if (a == 0) return static_cast<uint16_t>(sign);
    int e;
    std::frexp(a, &e);
    const int exp = e - 1;
    if (exp < -14) return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::ldexp(a, 24)));  // subnormal
    const uint32_t frac = static_cast<uint32_t>(std::ldexp(a, 10 - exp)) - 1024u;
    return static_cast<uint16_t>(sign | (static_cast<uint32_t>(exp + 15) << 10) | frac);
}
}  // namespace

float round_to(FloatFormat f, float x) {
    switch (f) {
        case FloatFormat::fp32: return x;
        case FloatFormat::bf16: return round_bf16(x);
        case FloatFormat::fp16: return round_fp16(x);
    }
    return x;
}

double unit_roundoff(FloatFormat f) {
    switch (f) {
        case FloatFormat::fp32: return std::ldexp(1.0, -24);
        case FloatFormat::bf16: return std::ldexp(1.0, -8);
        case FloatFormat::fp16: return std::ldexp(1.0, -11);
    }
    return 0;
}

int64_t ulp_distance(FloatFormat f, float a, float b) {
    int64_t oa, ob;
    switch (f) {
        case FloatFormat::fp16:
            oa = ordinal(fp16_bits(a), 15);
            ob = ordinal(fp16_bits(b), 15);
            break;
        case FloatFormat::bf16:
            oa = ordinal(std::bit_cast<uint32_t>(a) >> 16, 15);
            ob = ordinal(std::bit_cast<uint32_t>(b) >> 16, 15);
            break;
        default:
            oa = ordinal(std::bit_cast<uint32_t>(a), 31);
            ob = ordinal(std::bit_cast<uint32_t>(b), 31);
    }
    return oa > ob ? oa - ob : ob - oa;
}

}  // namespace collsim
