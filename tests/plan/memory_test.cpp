#include <catch2/catch.hpp>

#include "sim/plan/memory.hpp"
#include "sim/plan/model_card.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;

namespace {
// Llama-3-8B has 8,030,261,248 parameters (model_card_test counts them by hand).
constexpr double kPlanPsi = 8'030'261'248.0;

Layout plan_dp8(int zero) {
    Layout l;
    l.dp = 8;
    l.zero = zero;
    l.seq = 4096;
    l.global_batch = 8;
    l.recompute = Recompute::full;
    return l;
}
}  // namespace

TEST_CASE("ZeRO-1 on 8 data-parallel GPUs shards only the optimizer states", "[plan]") {
    const ModelCard c = load_model_card(test::source_path("models/llama-3-8b.yaml"));
    const MemoryPerGpu m = memory_per_gpu(c, plan_dp8(1), 80e9);
    // 2 bytes of weights and 2 of gradients per parameter, whole; 12 of Adam
    // states over 8 GPUs: 16,060,522,496 + 16,060,522,496 + 12,045,391,872.
    CHECK(m.weights == Approx(16'060'522'496.0));
    CHECK(m.gradients == Approx(16'060'522'496.0));
    CHECK(m.optimizer == Approx(12'045'391'872.0));
    CHECK(m.params == Approx(kPlanPsi));
}

TEST_CASE("ZeRO-3 on 8 data-parallel GPUs shards weights, gradients and optimizer states", "[plan]") {
    const ModelCard c = load_model_card(test::source_path("models/llama-3-8b.yaml"));
    const MemoryPerGpu m = memory_per_gpu(c, plan_dp8(3), 80e9);
    CHECK(m.weights == Approx(2'007'565'312.0));    // 2 x 8,030,261,248 / 8
    CHECK(m.gradients == Approx(2'007'565'312.0));
    CHECK(m.optimizer == Approx(12'045'391'872.0));  // 12 x 8,030,261,248 / 8
}

TEST_CASE("full recomputation keeps each layer's input: 2 bytes x tokens x hidden per layer", "[plan]") {
    const ModelCard c = load_model_card(test::source_path("models/llama-3-8b.yaml"));
    Layout l = plan_dp8(1);
    // 4,096 tokens x 4,096 wide x 2 bytes = 33,554,432 per layer, 32 layers.
    CHECK(layer_activation_bytes(c, l, false) == Approx(33'554'432.0));
    l.recompute = Recompute::none;
    // Without recomputation a Llama layer keeps, per token, norm and matmul
    // inputs (4 x 4096), q, k, v (4096 + 2 x 1024), the attention output
    // (4096) and SwiGLU's three FFN tensors (3 x 14336), 2 bytes each.
    CHECK(layer_activation_bytes(c, l, false) == Approx(4096.0 * 2 * (4 * 4096 + 6144 + 4096 + 3 * 14336)));
    // Tensor parallelism with sequence parallelism cuts all of it.
    Layout t = l;
    t.tp = 8, t.dp = 1, t.sp = true;
    CHECK(layer_activation_bytes(c, t, false) == Approx(layer_activation_bytes(c, l, false) / 8));
}

TEST_CASE("pipeline stages hold their layers; the first keeps p micro-batches in flight", "[plan]") {
    const ModelCard c = load_model_card(test::source_path("models/llama-3-70b.yaml"));
    Layout l;
    l.tp = 8, l.pp = 4, l.dp = 32, l.sp = true, l.seq = 4096, l.global_batch = 1024;
    for (int s = 0; s < 4; ++s) CHECK(stage_layers(c, l, s, false) == 20);
    l.vpp = 5;  // chunks of 4 layers, dealt round-robin
    for (int s = 0; s < 4; ++s) CHECK(stage_layers(c, l, s, false) == 20);
    l.pp = 16, l.vpp = 1;  // Llama 3 405B: 126 layers on 16 stages, 7 or 8 each
    const ModelCard l405 = load_model_card(test::source_path("models/llama-3-405b.yaml"));
    int64_t total = 0;
    for (int s = 0; s < 16; ++s) {
        CHECK((stage_layers(l405, l, s, false) == 7 || stage_layers(l405, l, s, false) == 8));
        total += stage_layers(l405, l, s, false);
    }
    CHECK(total == 126);
    l.pp = 4;
    const MemoryPerGpu m = memory_per_gpu(c, l, 80e9);
    CHECK(m.stage == 0);
    CHECK(m.activations == Approx(4 * 20 * layer_activation_bytes(c, l, false)));
}
