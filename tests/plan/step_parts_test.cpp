#include <catch2/catch.hpp>

#include "sim/plan/matmul_efficiency.hpp"
#include "sim/plan/pipeline_step.hpp"
#include "sim/plan/sync_step.hpp"

using namespace collsim;

TEST_CASE("the 1F1B bubble of equal stages is (p-1)/(m+p-1) of the pipeline", "[plan]") {
    for (int p : {2, 4, 8})
        for (long long m : {1LL, 4LL, 8LL, 32LL}) {
            const std::vector<StageCycle> stages(static_cast<std::size_t>(p), StageCycle{1.0, 2.0});
            const PipelineTime t = pipeline_time(stages, m, 1);
            CHECK(t.total == Approx(3.0 * static_cast<double>(m + p - 1)));
            CHECK(t.bubble / t.total == Approx(static_cast<double>(p - 1) / static_cast<double>(m + p - 1)));
        }
}

TEST_CASE("interleaving v chunks per stage cuts the bubble to (p-1)/(m v + p - 1)", "[plan]") {
    const std::vector<StageCycle> stages(4, StageCycle{1.0, 2.0});
    const PipelineTime t = pipeline_time(stages, 8, 2);
    CHECK(t.total == Approx(3.0 * (8 * 2 + 3) / 2));
    CHECK(t.bubble / t.total == Approx(3.0 / 19));
}

TEST_CASE("a slower stage sets the pace of every micro-batch", "[plan]") {
    std::vector<StageCycle> stages(4, StageCycle{1.0, 2.0});
    stages[3] = {2.0, 4.0};
    const PipelineTime t = pipeline_time(stages, 8, 1);
    CHECK(t.slowest == 3);
    CHECK(t.total == Approx(3 * 3 + 6 + 7 * 6.0));  // fill through the others, then 8 cycles of the slow one
}

TEST_CASE("buckets reduced during backward stick out by what the last ones still need", "[plan]") {
    // Four 3 s buckets ready at 2.5, 5, 7.5 and 10 s of a 10 s backward: they
    // end at 5.5, 8.5, 11.5, 14.5, so 4.5 s stick out.
    const OverlapTime t = bucketed_overlap(10, {3, 3, 3, 3}, true);
    CHECK(t.exposed == Approx(4.5));
    CHECK(t.overlapped == Approx(7.5));
    const OverlapTime serial = bucketed_overlap(10, {3, 3, 3, 3}, false);
    CHECK(serial.exposed == Approx(12));
    CHECK(serial.overlapped == 0);
    CHECK(hidden_behind(5, 3).exposed == 0);
    CHECK(hidden_behind(2, 3).exposed == Approx(1));
}

TEST_CASE("a GEMM runs in whole waves of 128 x 128 tiles and no faster than HBM", "[plan]") {
    const GpuCard* h100 = find_gpu_card("h100-sxm");
    REQUIRE(h100 != nullptr);
    // 132 SMs: 133 tiles take two waves.
    CHECK(wave_efficiency(Gemm{128 * 133, 128, 64}, 132) == Approx(133.0 / 264));
    CHECK(wave_efficiency(Gemm{128 * 132, 128, 64}, 132) == Approx(1.0));
    const ComputeRates r{h100, 0.8};
    // 8192^3 in bf16: 2 x 8192^3 / (989.4e12 x 0.8), 4096 tiles in 32 waves (4096 / 4224).
    const double t = gemm_seconds(r, FlopType::bf16, Gemm{8192, 8192, 8192}, 2);
    CHECK(t == Approx(2.0 * 8192 * 8192 * 8192 / (989.4e12 * 0.8) / (4096.0 / 4224)));
    // One row (decode): reading the 8192 x 8192 weights dominates.
    CHECK(gemm_seconds(r, FlopType::bf16, Gemm{1, 8192, 8192}, 2) ==
          Approx((8192.0 + 8192.0 * 8192 + 8192) * 2 / 3.35e12));
}

TEST_CASE("every GPU card the issue names has capacity, SMs and a datasheet source", "[plan]") {
    for (const char* name : {"a100-sxm-40gb", "a100-sxm-80gb", "h100-sxm", "h200-sxm", "b200", "gb200", "gb300",
                             "l40s", "rtx-4090", "mi300x"}) {
        INFO(name);
        const GpuCard* c = find_gpu_card(name);
        REQUIRE(c != nullptr);
        CHECK(c->memory_capacity.count() > 0);
        CHECK(c->sms > 0);
        CHECK(c->peak(FlopType::bf16) > 0);
        CHECK(c->peak(FlopType::fp8) > (std::string(name).starts_with("a100") ? -1 : 0));
        CHECK(c->matmul_sustained > 0);
        CHECK_THAT(c->source, Catch::Contains("datasheet") || Catch::Contains("whitepaper"));
    }
}
