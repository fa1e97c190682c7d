#include <catch2/catch.hpp>

#include "sim/core/units.hpp"

using namespace collsim;

TEST_CASE("bandwidth units distinguish bytes from bits and 10^9 from 2^30") {
    CHECK(parse_bandwidth("400Gb/s").bps() == 50'000'000'000);
    CHECK(parse_bandwidth("50GB/s").bps() == 50'000'000'000);
    CHECK(parse_bandwidth("3.35TB/s").bps() == 3'350'000'000'000);
    CHECK(parse_bandwidth("1GiB/s").bps() == 1'073'741'824);
}

TEST_CASE("a bandwidth must have a unit and be positive") {
    CHECK_THROWS_AS(parse_bandwidth("400"), std::invalid_argument);
    CHECK_THROWS_AS(parse_bandwidth("400 Gbps"), std::invalid_argument);
    CHECK_THROWS_AS(parse_bandwidth("0GB/s"), std::invalid_argument);
    CHECK_THROWS_AS(parse_bandwidth("-5GB/s"), std::invalid_argument);
}

TEST_CASE("sizes follow nccl-tests: K, M, G are powers of two") {
    CHECK(parse_size("8").count() == 8);
    CHECK(parse_size("64K").count() == 65536);
    CHECK(parse_size("1MiB").count() == 1 << 20);
    CHECK(parse_size("1G").count() == 1 << 30);
    CHECK(parse_size("2KB").count() == 2000);
    CHECK(parse_size("1e6").count() == 1'000'000);
    CHECK(parse_size("1.5e3KB").count() == 1'500'000);
    CHECK_THROWS_AS(parse_size("1Q"), std::invalid_argument);
    CHECK_THROWS_AS(parse_size("-1K"), std::invalid_argument);
    CHECK_THROWS_AS(parse_size("lots"), std::invalid_argument);
}

TEST_CASE("transfer time rounds up to the next picosecond and stays exact at NVLink rates") {
    // 1 GiB at 450 GB/s: 2386092942.2 ps, rounded up.
    CHECK(transfer_time(Bytes(1 << 30), parse_bandwidth("450GB/s")).ps() == 2'386'092'943);
    CHECK(transfer_time(Bytes(50), parse_bandwidth("50GB/s")).ps() == 1000);
    CHECK(transfer_time(Bytes(0), parse_bandwidth("50GB/s")).ps() == 0);
}
