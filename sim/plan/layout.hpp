#pragma once
// A parallel layout of a training job, as Megatron-LM names its settings:
// tensor (tp), pipeline (pp, with vpp interleaved chunks per stage), data
// (dp), context (cp) and expert (ep, carved out of dp) parallelism, sequence
// parallelism (sp) inside the TP group, the ZeRO stage of the optimizer
// states (1 and 2: Megatron's distributed optimizer), recomputation, the
// number format of the matmuls and the batch.
#include <cstdint>

#include "sim/plan/model_math.hpp"
#include "sim/replay/gpu_card.hpp"

namespace collsim {

struct Layout {
    int tp = 1, pp = 1, dp = 1, cp = 1, ep = 1, vpp = 1;
    bool sp = false;
    int zero = 1;
    Recompute recompute = Recompute::selective;
    FlopType dtype = FlopType::bf16;
    int64_t micro_batch = 1, global_batch = 1, seq = 2048;
    bool overlap = true;  // DP gradient reduce and parameter gather overlapped with compute
    int64_t bucket_params = 40'000'000;  // Megatron-core DDP's default bucket (40M parameters)

    int gpus() const { return tp * pp * dp * cp; }
    int64_t microbatches() const { return global_batch / (static_cast<int64_t>(dp) * micro_batch); }
    int64_t tokens_per_step() const { return global_batch * seq; }
};

std::string_view to_string(Recompute r);

}  // namespace collsim
