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
