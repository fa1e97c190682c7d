#include "sim/plan/layer_compute.hpp"

namespace collsim {

namespace {

constexpr int kActivationBytes = 2;  // bf16 activations (fp8 runs keep bf16 between kernels)

int value_bytes(FlopType t) { return t == FlopType::fp8 ? 1 : 2; }

double gemms(const ComputeRates& r, const Layout& l, std::initializer_list<Gemm> list) {
    double s = 0;
    for (const Gemm& g : list) s += gemm_seconds(r, l.dtype, g, value_bytes(l.dtype));
    return s;
}

// Attention matmuls of one layer on one TP rank, forward.
double attention_gemms(const ModelCard& c, const Layout& l, const ComputeRates& r, int64_t t) {
    const int64_t h = c.hidden, tp = l.tp;
    if (c.mla) {
        const MlaShape& m = *c.mla;
        const int64_t qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
        const int64_t q_rank = m.q_lora_rank > 0 ? m.q_lora_rank : h;
        // The low-rank down-projections are small and replicated over the TP group.
        return gemms(r, l,
                     {Gemm{t, m.q_lora_rank, h}, Gemm{t, c.heads * qk / tp, q_rank},
                      Gemm{t, m.kv_lora_rank + m.qk_rope_head_dim, h},
                      Gemm{t, c.heads * (m.qk_nope_head_dim + m.v_head_dim) / tp, m.kv_lora_rank},
                      Gemm{t, h, c.heads * m.v_head_dim / tp}});
    }
    return gemms(r, l, {Gemm{t, (c.q_dim() + 2 * c.kv_dim()) / tp, h}, Gemm{t, h, c.q_dim() / tp}});
}

double mlp_gemms(const ModelCard& c, const Layout& l, const ComputeRates& r, int64_t t, int64_t ffn, int64_t count,
                 int tp) {
    const int64_t up = (c.mlp == MlpKind::swiglu ? 2 : 1) * ffn / tp;
    return gemms(r, l, {Gemm{t, up, c.hidden, count}, Gemm{t, c.hidden, ffn / tp, count}});
}

// Bytes the memory-bound kernels of one layer move, forward: two norms (read
// and write h each), two residual adds (read 2h, write h), rotary on q and k
// (read and write), the activation function (SwiGLU reads 2 ffn and writes
// one; GELU reads and writes one) and dropout (read and write h, and the
// mask) where the card trains with it. The hidden-size tensors are cut over
// the TP group only with sequence parallelism.
double elementwise_bytes(const ModelCard& c, const Layout& l, int64_t t, int64_t ffn_per_gpu) {
    const double hidden_share = l.sp ? 1.0 / l.tp : 1.0;
    const double h = static_cast<double>(c.hidden) * hidden_share;
    const double qk = static_cast<double>(c.q_dim() + c.kv_dim()) / l.tp;
    const double act = (c.mlp == MlpKind::swiglu ? 3.0 : 2.0) * static_cast<double>(ffn_per_gpu);
    const double dropout = c.dropout ? 2 * 3 * h : 0;
    return static_cast<double>(t) * kActivationBytes * (4 * h + 6 * h + 2 * qk + act + dropout);
}

PassTime layer_pass(const ModelCard& c, const Layout& l, const ComputeRates& r, bool moe_layer) {
    const int64_t t = tokens_per_gpu(l);
    PassTime p;
    double matmul = attention_gemms(c, l, r, t);
    int64_t ffn_per_gpu = c.ffn / l.tp;
    if (moe_layer) {
        const MoeShape& m = *c.moe;
        // Balanced routing: the EP group's tokens x top_k assignments spread
        // evenly over its experts, so each GPU's experts see t x top_k tokens.
        const int64_t local_experts = m.experts / l.ep;
        const int64_t per_expert = t * m.top_k * l.ep / m.experts;
        matmul += mlp_gemms(c, l, r, per_expert, m.expert_ffn, local_experts, l.tp);
        if (m.shared_experts > 0) matmul += mlp_gemms(c, l, r, t, m.expert_ffn * m.shared_experts, 1, l.tp);
        matmul += gemms(r, l, {Gemm{t, m.experts, c.hidden}});  // router
        ffn_per_gpu = m.expert_ffn * (m.top_k + m.shared_experts) / l.tp;
    } else {
        matmul += mlp_gemms(c, l, r, t, c.ffn, 1, l.tp);
    }
    // Scores and values over the whole sequence (CP gathers the keys and
    // values), causal: half of the products are computed.
    const double attn_flops = 2.0 * static_cast<double>(t) * static_cast<double>(l.seq) *
                              static_cast<double>(c.heads / l.tp) *
                              static_cast<double>(qk_head_dim(c) + v_head_dim(c)) / 2;
    const double attention = flops_seconds(r, FlopType::bf16, attn_flops);
    const double memory = memory_seconds(r, elementwise_bytes(c, l, t, ffn_per_gpu));
    p.forward = matmul + attention + memory;
    p.backward = 2 * matmul + 2.5 * attention + 2 * memory;
    p.attention_forward = attention;
    switch (l.recompute) {
        case Recompute::none: break;
        case Recompute::selective: p.recompute = attention; break;
        case Recompute::full: p.recompute = p.forward; break;
    }
    return p;
}

}  // namespace

int64_t tokens_per_gpu(const Layout& l) { return l.micro_batch * l.seq / l.cp; }

LayerCompute layer_compute(const ModelCard& c, const Layout& l, const ComputeRates& r) {
    LayerCompute out;
    out.dense = layer_pass(c, l, r, false);
    if (c.moe) out.moe = layer_pass(c, l, r, true);
    const int64_t t = tokens_per_gpu(l);
    // Embedding lookup: read a row and write it per token.
    out.first_extra.forward = memory_seconds(r, static_cast<double>(t) * c.hidden * kActivationBytes * 2);
    out.first_extra.backward = 2 * out.first_extra.forward;
    // Output head over the vocabulary share of this TP rank, then the
    // cross-entropy over the fp32 logits (read and write).
    const double head = gemms(r, l, {Gemm{t, c.vocab / l.tp, c.hidden}});
    const double loss = memory_seconds(r, static_cast<double>(t) * static_cast<double>(c.vocab / l.tp) * 4 * 2);
    out.last_extra.forward = head + loss;
    out.last_extra.backward = 2 * head + loss;
    return out;
}

}  // namespace collsim
