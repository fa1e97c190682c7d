#include <catch2/catch.hpp>

#include "sim/core/time.hpp"

using namespace collsim;
using namespace collsim::literals;

TEST_CASE("human time units parse exactly to picoseconds") {
    CHECK(parse_time("0.5us") == 500_ns);
    CHECK(parse_time("1.2ms") == Time::from_ps(1'200'000'000));
    CHECK(parse_time("3s") == Time::from_ps(3'000'000'000'000));
    CHECK(parse_time("600ns") == 600_ns);
    CHECK(parse_time("250ps") == 250_ps);
    CHECK(parse_time("10min") == Time::from_ps(600'000'000'000'000));
    CHECK(parse_time(" 1.5 us ") == 1500_ns);
}

TEST_CASE("times take an exponent, exactly, and say when one is too large") {
    CHECK(parse_time("2.5e-3s") == Time::from_ps(2'500'000'000));
    CHECK(parse_time("1e2ms") == 100_ms);
    CHECK(parse_time("1E+3ns") == 1_us);
    // A non-zero time below the clock's picosecond is refused, not rounded to nothing (issue 24).
    CHECK_THROWS_WITH(parse_time("3e-400s"), Catch::Contains("a time of 0 or at least 0.5ps"));
    CHECK_THROWS_WITH(parse_time("1e-30ns"), Catch::Contains("a time of 0 or at least 0.5ps"));
    CHECK(parse_time("0.5ps") == Time::from_ps(1));
    CHECK(parse_time("0e-3s") == Time{});
    CHECK_THROWS_WITH(parse_time("1e20ms"), Catch::Contains("a time that fits in 106 days"));
    CHECK_THROWS_WITH(parse_time("1e400s"), Catch::Contains("a time that fits in 106 days"));
    CHECK_THROWS_WITH(parse_time("1e-ms"), Catch::Contains("a time unit"));  // no digits: 'e-ms' is the unit
}

TEST_CASE("a time without a known unit is rejected") {
    CHECK_THROWS_AS(parse_time("5"), std::invalid_argument);
    CHECK_THROWS_AS(parse_time("5 parsecs"), std::invalid_argument);
    CHECK_THROWS_AS(parse_time("us"), std::invalid_argument);
    CHECK_THROWS_AS(parse_time(""), std::invalid_argument);
}

TEST_CASE("times print in the largest exact unit") {
    CHECK(format_time(1500_ns) == "1.5us");
    CHECK(format_time(600_ns) == "600ns");
    CHECK(format_time(Time::from_ps(3'000'000'000'000)) == "3s");
    CHECK(format_time(Time::from_ps(1'200'000'000)) == "1.2ms");
    CHECK(format_time(Time{}) == "0s");
    CHECK(format_time(Time::from_ps(1)) == "1ps");
    CHECK(format_time(Time{} - 2_us) == "-2us");
}

TEST_CASE("printing and parsing a time round-trips") {
    for (int64_t ps : {1LL, 999LL, 123456789LL, 42'000'000'000'000LL}) {
        Time t = Time::from_ps(ps);
        CHECK(parse_time(format_time(t)) == t);
    }
}
