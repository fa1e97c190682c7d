#pragma once
// Compute time of one layer's forward and backward pass on one GPU, for one
// micro-batch, as Megatron-LM splits the layer: attention and MLP matmuls cut
// over the TP group (column- then row-parallel), experts over the EP group,
// the sequence over the CP group. Flash attention computes only the causal
// half of the scores, and its backward runs 5 matmuls against the forward's
// 2 (Dao, FlashAttention-2, 2023, section 3.1.2); other matmuls' backward
// runs two of the forward's shape (data and weight gradients). Norms,
// residuals, rotary and activation functions are memory-bound: each tensor
// they read and write crosses HBM once.
#include "sim/plan/layout.hpp"
#include "sim/plan/matmul_efficiency.hpp"
#include "sim/plan/model_card.hpp"

namespace collsim {

struct PassTime {
    double forward = 0, backward = 0;
    double recompute = 0;  // forward work run again in backward under the recompute setting
    double attention_forward = 0;  // the attention core, which context parallelism overlaps with
};

struct LayerCompute {
    PassTime dense, moe;        // a dense layer, an MoE layer (zero for dense models)
    PassTime first_extra;       // the embedding, on the first stage
    PassTime last_extra;        // output head and loss, on the last stage
};

// Tokens of one micro-batch on one GPU of the CP group.
int64_t tokens_per_gpu(const Layout& l);

LayerCompute layer_compute(const ModelCard& c, const Layout& l, const ComputeRates& r);

}  // namespace collsim
