#pragma once
// Parameters and FLOPs of a model card, counted from its shapes. Parameter
// counts include every weight matrix, norm and bias (so a card can be checked
// against the figure its source publishes); FLOPs per token follow the usual
// convention (Kaplan et al. 2020; PaLM, Chowdhery et al. 2022, appendix B):
// 2 FLOPs per multiply-add of every matmul weight a token meets, plus the
// attention score and value products over the whole sequence (12 L h_q s per
// token for training, not halved for the causal mask), backward twice forward.
#include "sim/plan/model_card.hpp"

namespace collsim {

struct ParamCounts {
    double total = 0;
    double active = 0;      // what one token uses (= total for a dense model)
    double embedding = 0;   // input embedding (and position table); the output head is counted in it when tied
    double head = 0;        // output projection to the vocabulary, when untied
    double attention = 0;   // per layer
    double dense_mlp = 0;   // per dense layer
    double expert = 0;      // one routed or shared expert
    double router = 0;      // per MoE layer
    double norms = 0;       // per layer (and the final norm, once, in total)
    double layer_total(bool moe_layer, const ModelCard& c) const;
    double layer_active(bool moe_layer, const ModelCard& c) const;
};

ParamCounts count_params(const ModelCard& c);

// Recomputation of activations in the backward pass, as Megatron-LM names it
// (Korthikanti et al. 2022): none, selective (the attention core only) or
// full (every layer's forward once more).
enum class Recompute { none, selective, full };

struct TokenFlops {
    double matmul = 0;     // forward, per token: 2 x the matmul weights a token meets (output head included)
    double attention = 0;  // forward, per token: score and value products over `seq` (4 x layers x q-width x seq)
    double forward() const { return matmul + attention; }
    // Forward, backward (twice forward) and what the recompute setting runs again.
    double training(Recompute r) const;
    double model_training() const { return 3 * forward(); }  // what MFU counts
};

TokenFlops token_flops(const ModelCard& c, int64_t seq);

// Width of a query/key head and of a value head (MLA's differ).
int64_t qk_head_dim(const ModelCard& c);
int64_t v_head_dim(const ModelCard& c);

}  // namespace collsim
