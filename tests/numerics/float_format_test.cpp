#include <catch2/catch.hpp>

#include <cmath>

#include "sim/numerics/float_format.hpp"

using namespace collsim;

TEST_CASE("bf16 rounds to nearest, ties to even") {
    CHECK(round_to(FloatFormat::bf16, 1.0f) == 1.0f);
    CHECK(round_to(FloatFormat::bf16, 1.0f + 0x1.0p-8f) == 1.0f);                  // tie: down to even
    CHECK(round_to(FloatFormat::bf16, 1.0f + 3 * 0x1.0p-8f) == 1.0f + 0x1.0p-6f);  // tie: up to even
    CHECK(round_to(FloatFormat::bf16, 1.0f + 0x1.8p-8f) == 1.0f + 0x1.0p-7f);      // above the tie
    CHECK(round_to(FloatFormat::bf16, -3.14159f) == -3.140625f);
    CHECK(std::isinf(round_to(FloatFormat::bf16, INFINITY)));
}

TEST_CASE("fp16 rounds to nearest even, keeps subnormals and overflows to infinity") {
    CHECK(round_to(FloatFormat::fp16, 2049.0f) == 2048.0f);  // tie at ulp 2: to even
    CHECK(round_to(FloatFormat::fp16, 2051.0f) == 2052.0f);
    CHECK(round_to(FloatFormat::fp16, 65504.0f) == 65504.0f);
    CHECK(std::isinf(round_to(FloatFormat::fp16, 65520.0f)));
    CHECK(round_to(FloatFormat::fp16, 0x1.0p-24f) == 0x1.0p-24f);  // smallest subnormal
    CHECK(round_to(FloatFormat::fp16, 0x1.0p-26f) == 0.0f);
    CHECK(round_to(FloatFormat::fp16, 0.1f) == 0.0999755859375f);
}

TEST_CASE("fp16 rounding keeps the sign, ties subnormals to even and passes NaN through") {
    CHECK(round_to(FloatFormat::fp16, -2049.0f) == -2048.0f);
    CHECK(round_to(FloatFormat::fp16, 65519.0f) == 65504.0f);  // just under the tie with infinity
    CHECK(round_to(FloatFormat::fp16, -65520.0f) == -INFINITY);
    CHECK(std::signbit(round_to(FloatFormat::fp16, -0x1.0p-26f)));  // underflows to -0
    CHECK(round_to(FloatFormat::fp16, 0x1.0p-25f) == 0.0f);          // half a quantum: tie to even 0
    CHECK(round_to(FloatFormat::fp16, 0x1.8p-25f) == 0x1.0p-24f);
    CHECK(round_to(FloatFormat::fp16, 3 * 0x1.0p-25f) == 0x1.0p-23f);  // 1.5 quanta: tie to even 2
    CHECK(round_to(FloatFormat::fp16, 0x1.ffap-15f) == 0x1.ff8p-15f);  // 1023.25 quanta: the largest subnormal
    CHECK(round_to(FloatFormat::fp16, 0x1.ffcp-15f) == 0x1.0p-14f);    // 1023.5: tie to even 1024, the smallest normal
    CHECK(std::isnan(round_to(FloatFormat::fp16, NAN)));
}

TEST_CASE("ulp distance counts representable values between two numbers, across zero") {
    CHECK(ulp_distance(FloatFormat::fp32, 1.0f, std::nextafter(1.0f, 2.0f)) == 1);
    CHECK(ulp_distance(FloatFormat::bf16, 1.0f, 1.0f + 0x1.0p-7f) == 1);
    CHECK(ulp_distance(FloatFormat::fp16, 1.0f, 1.0f + 0x1.0p-10f) == 1);
    CHECK(ulp_distance(FloatFormat::fp16, 0x1.0p-24f, -0x1.0p-24f) == 2);
    CHECK(ulp_distance(FloatFormat::fp32, 0.0f, -0.0f) == 0);
}

TEST_CASE("unit roundoff follows the significand width") {
    CHECK(unit_roundoff(FloatFormat::fp32) == std::ldexp(1.0, -24));
    CHECK(unit_roundoff(FloatFormat::bf16) == std::ldexp(1.0, -8));
    CHECK(unit_roundoff(FloatFormat::fp16) == std::ldexp(1.0, -11));
}
