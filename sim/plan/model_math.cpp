#include "sim/plan/model_math.hpp"

namespace collsim {

namespace {

double mlp_params(const ModelCard& c, int64_t ffn) {
    const double h = static_cast<double>(c.hidden), f = static_cast<double>(ffn);
    // SwiGLU: gate and up projections, then down; GELU: up and down, with biases when the card has them.
    if (c.mlp == MlpKind::swiglu) return 3 * h * f + (c.biases ? 2 * f + h : 0);
    return 2 * h * f + (c.biases ? f + h : 0);
}

double attention_params(const ModelCard& c) {
    const double h = static_cast<double>(c.hidden);
    const double heads = static_cast<double>(c.heads);
    if (c.mla) {
        // DeepSeek-V2/V3 (config.json of deepseek-ai/DeepSeek-V3): queries through a rank-q_lora
        // bottleneck (with its norm), keys and values through a rank-kv_lora one plus a shared
        // rotary key, then the output projection.
        const MlaShape& m = *c.mla;
        const double qk = static_cast<double>(m.qk_nope_head_dim + m.qk_rope_head_dim);
        const double q = m.q_lora_rank > 0 ? h * static_cast<double>(m.q_lora_rank) +
                                                 static_cast<double>(m.q_lora_rank) * heads * qk +
                                                 static_cast<double>(m.q_lora_rank)
                                           : h * heads * qk;
        const double kv = h * static_cast<double>(m.kv_lora_rank + m.qk_rope_head_dim) +
                          static_cast<double>(m.kv_lora_rank) +
                          static_cast<double>(m.kv_lora_rank) * heads *
                              static_cast<double>(m.qk_nope_head_dim + m.v_head_dim);
        return q + kv + heads * static_cast<double>(m.v_head_dim) * h;
    }
    const double q = static_cast<double>(c.q_dim()), kv = static_cast<double>(c.kv_dim());
    return h * (q + 2 * kv) + q * h + (c.biases ? q + 2 * kv + h : 0);
}

}  // namespace

int64_t qk_head_dim(const ModelCard& c) {
    return c.mla ? c.mla->qk_nope_head_dim + c.mla->qk_rope_head_dim : c.head_dim;
}

int64_t v_head_dim(const ModelCard& c) { return c.mla ? c.mla->v_head_dim : c.head_dim; }

double ParamCounts::layer_total(bool moe_layer, const ModelCard& c) const {
    if (!moe_layer) return attention + dense_mlp + norms;
    return attention + router + norms +
           expert * static_cast<double>(c.moe->experts + c.moe->shared_experts);
}

double ParamCounts::layer_active(bool moe_layer, const ModelCard& c) const {
    if (!moe_layer) return layer_total(false, c);
    return attention + router + norms + expert * static_cast<double>(c.moe->top_k + c.moe->shared_experts);
}

ParamCounts count_params(const ModelCard& c) {
    ParamCounts p;
    const double h = static_cast<double>(c.hidden);
    p.embedding = static_cast<double>(c.vocab) * h + static_cast<double>(c.max_positions) * h;
    p.head = c.tied_embeddings ? 0 : static_cast<double>(c.vocab) * h;
    p.attention = attention_params(c);
    p.dense_mlp = mlp_params(c, c.ffn);
    p.norms = (c.biases ? 4 : 2) * h;  // two norms per layer, each a scale (and a shift with biases)
    if (c.moe) {
        p.expert = mlp_params(c, c.moe->expert_ffn);
        // DeepSeek-V3's gate also carries a per-expert bias (e_score_correction_bias).
        p.router = static_cast<double>(c.moe->experts) * h + (c.mla ? static_cast<double>(c.moe->experts) : 0);
    }
    const double final_norm = (c.biases ? 2 : 1) * h;
    const double dense = static_cast<double>(c.layers - c.moe_layers());
    const double moe = static_cast<double>(c.moe_layers());
    p.total = p.embedding + p.head + final_norm + dense * p.layer_total(false, c) +
              (c.moe ? moe * p.layer_total(true, c) : 0);
    p.active = p.embedding + p.head + final_norm + dense * p.layer_active(false, c) +
               (c.moe ? moe * p.layer_active(true, c) : 0);
    return p;
}

double TokenFlops::training(Recompute r) const {
    switch (r) {
        case Recompute::none: return 3 * forward();
        case Recompute::selective: return 3 * forward() + attention;
        case Recompute::full: return 4 * forward();
    }
    return 3 * forward();
}

TokenFlops token_flops(const ModelCard& c, int64_t seq) {
    const ParamCounts p = count_params(c);
    const double h = static_cast<double>(c.hidden);
    // Matmul weights a token meets: every layer's active weights less the
    // norms, plus the output head (the tied embedding when tied); the input
    // embedding is a lookup. Biases are additions but are counted with their
    // matrices: under 0.01% of a layer (13h against 12h^2 for GPT-3).
    const double dense = static_cast<double>(c.layers - c.moe_layers());
    const double moe = static_cast<double>(c.moe_layers());
    const double weights = dense * (p.layer_active(false, c) - p.norms) +
                           (c.moe ? moe * (p.layer_active(true, c) - p.norms) : 0) +
                           static_cast<double>(c.vocab) * h;
    TokenFlops f;
    f.matmul = 2 * weights;
    f.attention = 4 * static_cast<double>(c.layers) * static_cast<double>(c.heads) *
                  static_cast<double>(qk_head_dim(c) + v_head_dim(c)) / 2 * static_cast<double>(seq);
    return f;
}

}  // namespace collsim
