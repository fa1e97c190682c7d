#include "sim/plan/inference.hpp"

#include <algorithm>
#include <cmath>

#include "sim/plan/matmul_efficiency.hpp"
#include "sim/plan/model_math.hpp"

namespace collsim {

namespace {

int weight_bytes(FlopType t) { return t == FlopType::fp8 ? 1 : 2; }

// Per-token bytes of one layer's KV cache on one GPU. Grouped-query heads are
// cut over TP down to one per GPU and copied beyond; MLA caches its latent
// vector and rotary key, the same on every TP rank.
double kv_bytes_per_token(const ModelCard& c, int tp) {
    if (c.mla) return 2.0 * static_cast<double>(c.mla->kv_lora_rank + c.mla->qk_rope_head_dim);
    const double heads = static_cast<double>(c.kv_heads) / std::min<double>(tp, static_cast<double>(c.kv_heads));
    return 2.0 * 2 * heads * static_cast<double>(c.head_dim);
}

}  // namespace

void check_inference(const ModelCard& c, const InferenceRequest& q, int gpus, int gpus_per_node) {
    Layout l;
    l.tp = q.tp, l.pp = q.pp, l.dp = gpus / std::max(1, q.tp * q.pp);
    l.global_batch = l.dp, l.seq = q.context;
    check_layout(c, l, l.tp * l.pp * l.dp, gpus_per_node);
    if (q.tp * q.pp > gpus)
        bad_layout("--tp", "tp x pp within the " + std::to_string(gpus) + " GPUs", std::to_string(q.tp * q.pp));
    for (auto [name, v] : {std::pair{"--batch", q.batch}, {"--context", q.context}, {"--tokens", q.new_tokens}})
        if (v < 1) bad_layout(name, "1 or more", std::to_string(v));
}

InferenceResult plan_inference(const ModelCard& c, const InferenceRequest& q, const PlanSettings& s,
                               CollectiveCosts& costs) {
    InferenceResult r;
    r.model = c.name;
    r.request = q;
    const ComputeRates rates{s.card, s.sustained > 0 ? s.sustained : s.card->matmul_sustained};
    const int64_t tokens = q.mode == InferenceMode::decode ? q.batch : q.batch * q.context;
    const int vb = weight_bytes(q.dtype);
    const int64_t h = c.hidden, tp = q.tp;
    auto gemm = [&](int64_t m, int64_t n, int64_t k, int64_t count = 1) {
        return gemm_seconds(rates, q.dtype, Gemm{m, n, k, count}, vb);
    };
    const int64_t up = c.mlp == MlpKind::swiglu ? 2 : 1;
    double layer = gemm(tokens, (c.q_dim() + 2 * c.kv_dim()) / tp, h) + gemm(tokens, h, c.q_dim() / tp);
    if (c.moe) {
        // Routed tokens land on at most batch x top_k distinct experts, each read in full.
        const int64_t routed = tokens * c.moe->top_k;
        const int64_t touched = std::min(c.moe->experts, routed);
        const int64_t rows = (routed + touched - 1) / touched;
        layer += gemm(rows, up * c.moe->expert_ffn / tp, h, touched) + gemm(rows, h, c.moe->expert_ffn / tp, touched);
        if (c.moe->shared_experts > 0) {
            const int64_t f = c.moe->expert_ffn * c.moe->shared_experts / tp;
            layer += gemm(tokens, up * f, h) + gemm(tokens, h, f);
        }
    } else {
        layer += gemm(tokens, up * c.ffn / tp, h) + gemm(tokens, h, c.ffn / tp);
    }
    // Attention over the cache (decode) or causal over the prompt (prefill).
    const double attended = q.mode == InferenceMode::decode ? static_cast<double>(q.context)
                                                            : static_cast<double>(q.context) / 2;
    const double attn_flops = 2.0 * static_cast<double>(tokens) * attended * static_cast<double>(c.heads / tp) *
                              static_cast<double>(qk_head_dim(c) + v_head_dim(c));
    const double cache_read = static_cast<double>(q.batch) * static_cast<double>(q.context) * kv_bytes_per_token(c, q.tp);
    layer += std::max(flops_seconds(rates, FlopType::bf16, attn_flops), memory_seconds(rates, cache_read));
    r.layer_compute = layer;
    std::vector<int> tp_group, pp_pair;
    for (int i = 0; i < q.tp; ++i) tp_group.push_back(i);
    const Bytes act{tokens * h * 2};
    if (q.tp > 1) {
        const CollectiveCost& ar = costs.cost(CollOp::allreduce, act, tp_group);
        r.tp_allreduce = ar.seconds;
        r.algo = ar.algo;
    }
    if (q.pp > 1) r.pp_transfer = costs.cost(CollOp::sendrecv, act, {0, q.tp}).seconds;
    const double head = gemm(tokens, c.vocab / tp, h);
    const double layers = static_cast<double>(c.layers);
    const double pass = layers * (layer + 2 * r.tp_allreduce) + head + (q.pp - 1) * r.pp_transfer;
    r.tp_share = layers * 2 * r.tp_allreduce / pass;
    if (q.mode == InferenceMode::decode) {
        r.per_token = pass;
        r.per_request = pass * static_cast<double>(q.new_tokens);
    } else {
        r.per_request = pass;
        r.per_token = pass / static_cast<double>(tokens);
    }
    const ParamCounts p = count_params(c);
    r.weights = p.total * vb / (static_cast<double>(q.tp) * q.pp);
    const double cached = static_cast<double>(q.context + (q.mode == InferenceMode::decode ? q.new_tokens : 0));
    r.kv_cache = layers / q.pp * static_cast<double>(q.batch) * cached * kv_bytes_per_token(c, q.tp);
    r.capacity = s.capacity > 0 ? s.capacity : static_cast<double>(s.card->memory_capacity.count());
    return r;
}

}  // namespace collsim
