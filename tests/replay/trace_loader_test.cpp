#include <catch2/catch.hpp>

#include "sim/replay/communicator_rules.hpp"
#include "sim/replay/gpu_card.hpp"
#include "sim/replay/trace_loader.hpp"
#include "tests/support/input_error.hpp"

using namespace collsim;
using namespace collsim::literals;

TEST_CASE("communicator rules give blocks, strides and strided blocks") {
    using G = std::vector<std::vector<int>>;
    CHECK(strided_groups(8, 4, 1) == G{{0, 1, 2, 3}, {4, 5, 6, 7}});
    CHECK(strided_groups(8, 4, 2) == G{{0, 2, 4, 6}, {1, 3, 5, 7}});
    CHECK(strided_groups(16, 2, 4) == G{{0, 4}, {1, 5}, {2, 6}, {3, 7}, {8, 12}, {9, 13}, {10, 14}, {11, 15}});
    CHECK_THROWS_AS(strided_groups(8, 3, 1), std::invalid_argument);
}

TEST_CASE("an SPMD trace loads with its rules, streams and one shared program") {
    const Trace t = parse_trace(R"(
name: spmd
ranks: 8
communicators:
  world: all
  tp: {blocks: 4}
  dp: {stride: 4}
  pairs: {groups: [[0, 7], "1-2"]}
program:
  - {name: fwd, duration: 10us}
  - {name: ar, collective: allreduce, bytes: 1MiB, comm: tp, after: [fwd]}
  - {name: grad, collective: allreduce, bytes: 2MiB, dtype: bf16, comm: dp, stream: dp, after: [fwd]}
)", "spmd.yaml");
    CHECK(t.ranks == 8);
    REQUIRE(t.communicators.size() == 4);
    CHECK(t.communicators[1].groups == std::vector<std::vector<int>>{{0, 1, 2, 3}, {4, 5, 6, 7}});
    CHECK(t.communicators[2].groups == std::vector<std::vector<int>>{{0, 4}, {1, 5}, {2, 6}, {3, 7}});
    CHECK(t.communicators[3].group_of == std::vector<int>{0, 1, 1, -1, -1, -1, -1, 0});
    CHECK(t.communicators[3].position[7] == 1);
    CHECK(t.streams == std::vector<std::string>{"compute", "comm", "dp"});
    for (int r = 1; r < 8; ++r) CHECK(&t.program(r) == &t.program(0));
    const TraceOp& grad = t.program(0).ops[2];
    CHECK(grad.kind == OpKind::collective);
    CHECK(grad.collective.dtype == "bfloat16");
    CHECK(grad.collective.bytes == Bytes(2 << 20));
    CHECK(grad.after == std::vector<OpIndex>{0});
    CHECK(grad.where.line == 12);
    CHECK(grad.where.column == 5);
}

TEST_CASE("an override gives the ranks it names a program of their own") {
    const Trace t = parse_trace(R"(
ranks: 4
communicators: {ep: all}
program:
  - {name: work, flops: 2TFLOP, bytes: 1GB, dtype: fp8}
  - {name: a2a, collective: alltoall, split: [1K, 2K, 3K, 4K], comm: ep, after: [work]}
overrides:
  - {ranks: "1-2", op: work, duration: 5us}
  - {ranks: [2], op: a2a, split: [0, 0, 8K, 0]}
)", "ov.yaml");
    CHECK(&t.program(0) == &t.program(3));
    CHECK(&t.program(1) != &t.program(0));
    CHECK(&t.program(2) != &t.program(1));
    CHECK(t.program(0).ops[0].compute.flops == 2e12);
    CHECK(t.program(0).ops[0].compute.type == FlopType::fp8);
    CHECK(t.program(1).ops[0].compute.duration == 5_us);
    CHECK(t.program(1).ops[0].compute.flops == 0);  // a duration replaces the roofline inputs
    CHECK(t.program(2).ops[0].compute.duration == 5_us);
    CHECK(t.program(0).ops[1].collective.bytes == Bytes(10 * 1024));
    CHECK(t.program(2).ops[1].collective.split[2] == Bytes(8192));
    CHECK(t.program(2).ops[1].collective.bytes == Bytes(8192));
    CHECK(t.program(2).ops[1].after == std::vector<OpIndex>{0});
}

TEST_CASE("per-rank programs with relative peers inside a communicator") {
    const Trace t = parse_trace(R"(
ranks: 4
communicators: {pp: {size: 2, stride: 2}}
programs:
  - ranks: "0-1"
    ops:
      - {name: f, duration: 1us}
      - {name: s, send: next, comm: pp, bytes: 64K, after: [f]}
  - ranks: [2, 3]
    ops:
      - {name: r, recv: prev, comm: pp, bytes: 64K}
      - {name: f, duration: 1us, after: [r]}
)", "pp.yaml");
    CHECK(p2p_peer(t, 0, t.program(0).ops[1].p2p) == 2);
    CHECK(p2p_peer(t, 1, t.program(1).ops[1].p2p) == 3);
    CHECK(p2p_peer(t, 3, t.program(3).ops[0].p2p) == 1);
    CHECK(t.program(0).ops[1].kind == OpKind::send);
}

TEST_CASE("JSON traces read through the same parser, errors keep line and column") {
    const std::string json = R"({
  "ranks": 2,
  "communicators": {"world": "all"},
  "program": [
    {"name": "a", "duration": "3us"},
    {"name": "b", "collective": "allreduce", "bytes": 4096, "comm": "world", "after": ["a"]}
  ]
})";
    const Trace t = parse_trace(json, "t.json");
    CHECK(t.program(1).ops[1].collective.bytes == Bytes(4096));
    std::string bad = json;
    bad.replace(bad.find("\"3us\""), 5, "\"3\"");
    CHECK_THAT(test::input_error_of([&] { parse_trace(bad, "t.json"); }),
               Catch::StartsWith("t.json:5:31: program[0].duration: expected a unit after the number"));
}

TEST_CASE("FLOP counts and rates read with SI prefixes and exponents") {
    CHECK(parse_flops("1.5e12") == 1.5e12);
    CHECK(parse_flops("350GFLOP") == Approx(3.5e11));
    CHECK(parse_flops("2 TFLOP") == 2e12);
    CHECK(parse_flop_rate("989.4TFLOP/s") == Approx(989.4e12));
    CHECK(parse_flop_rate("1PFLOPS") == 1e15);
    CHECK_THROWS_AS(parse_flop_rate("989"), std::invalid_argument);
    CHECK_THROWS_AS(parse_flops("3 GB"), std::invalid_argument);
    CHECK_THROWS_AS(parse_flops("-1"), std::invalid_argument);
}

TEST_CASE("the roofline takes the slower of compute and memory, rounded up") {
    Roofline r{100e12, Bandwidth::bytes_per_s(1'000'000'000'000), 0.5, 0.8};
    CHECK(roofline_time(r, 1e12, Bytes(1'000'000'000)) == 20_ms);        // 1e12 / 50e12 s > 1e9 / 0.8e12 s
    CHECK(roofline_time(r, 1e9, Bytes(1'000'000'000)) == 1250_us);       // memory bound
    CHECK(roofline_time(r, 0, Bytes{}) == Time{});
    const GpuCard* h100 = find_gpu_card("h100-sxm");
    REQUIRE(h100);
    CHECK(h100->peak(FlopType::bf16) == Approx(989.4e12));
    CHECK(h100->memory_bandwidth.bps() == 3'350'000'000'000);
    CHECK(default_gpu_card(GpuArch::ampere)->name == "a100-sxm-80gb");
    CHECK(default_gpu_card(GpuArch::unknown) == nullptr);
}
