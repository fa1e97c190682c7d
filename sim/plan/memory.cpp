#include "sim/plan/memory.hpp"

#include <algorithm>

#include "sim/plan/layer_compute.hpp"
#include "sim/plan/model_math.hpp"

namespace collsim {

namespace {

constexpr double kWeightBytes = 2, kGradientBytes = 2, kOptimizerBytes = 12;  // ZeRO, section 3.1
// NCCL allocates its Simple-protocol buffer, DEFAULT_BUFFSIZE = 4 MiB
// (src/init.cc), per channel and ring neighbour; 16 channels and 2
// neighbours per communicator are an estimate (NCCL picks the channels).
constexpr double kNcclBuffers = 4.0 * (1 << 20) * 16 * 2;

bool is_moe_layer(const ModelCard& c, int64_t layer) { return c.moe && layer >= c.moe->dense_layers; }

}  // namespace

int64_t stage_layers(const ModelCard& c, const Layout& l, int stage, bool moe_layers) {
    // Layers that do not divide evenly leave some chunks one layer short
    // (Megatron lets the first and last stage hold fewer, as Llama 3's 126
    // layers on 16 stages did).
    const int64_t chunks = static_cast<int64_t>(l.pp) * l.vpp;
    int64_t n = 0;
    for (int64_t layer = 0; layer < c.layers; ++layer)
        if ((layer * chunks / c.layers) % l.pp == stage && is_moe_layer(c, layer) == moe_layers) ++n;
    return n;
}

double layer_activation_bytes(const ModelCard& c, const Layout& l, bool moe_layer) {
    const double t = static_cast<double>(tokens_per_gpu(l));
    const double hs = static_cast<double>(c.hidden) / (l.sp ? l.tp : 1);  // hidden-size tensors
    if (l.recompute == Recompute::full) return t * 2 * hs;               // the layer's input only
    const double qkv = static_cast<double>(c.q_dim() + 2 * c.kv_dim()) / l.tp;
    const double attn_out = static_cast<double>(c.heads * v_head_dim(c)) / l.tp;
    // Norm inputs, the inputs of the QKV and first MLP matmuls (2 bytes each).
    double elements = 4 * hs + qkv + attn_out;
    double ffn = static_cast<double>(c.ffn) / l.tp;
    double tokens_ffn = 1;
    if (moe_layer) {
        ffn = static_cast<double>(c.moe->expert_ffn) / l.tp;
        tokens_ffn = static_cast<double>(c.moe->top_k + c.moe->shared_experts);
        elements += static_cast<double>(c.hidden) * c.moe->top_k / l.tp;  // tokens permuted to their experts
    }
    // SwiGLU keeps the gate and up outputs and the down projection's input;
    // GELU its input and output.
    elements += (c.mlp == MlpKind::swiglu ? 3 : 2) * ffn * tokens_ffn;
    double bytes = t * 2 * elements;
    if (c.dropout) bytes += t * 2 * hs;  // two dropout masks, a byte per element
    return bytes;
}

MemoryPerGpu memory_per_gpu(const ModelCard& c, const Layout& l, double capacity) {
    const ParamCounts p = count_params(c);
    const double dense_layer = p.layer_total(false, c);
    const double non_expert_moe_layer = c.moe ? p.attention + p.router + p.norms +
                                                    p.expert * static_cast<double>(c.moe->shared_experts)
                                              : 0;
    const double routed = c.moe ? p.expert * static_cast<double>(c.moe->experts) : 0;
    const double dp_shards = static_cast<double>(l.dp) * l.cp;
    const double expert_shards = dp_shards / l.ep;
    // In flight on a stage under 1F1B: the first stage keeps p micro-batches
    // (fewer when there are fewer), interleaving adds (p-1)/(p v) of them
    // (Korthikanti et al., section 4.2.3); without pipelining, one.
    const double m = static_cast<double>(l.microbatches());
    MemoryPerGpu best;
    for (int stage = 0; stage < l.pp; ++stage) {
        const double dense = static_cast<double>(stage_layers(c, l, stage, false));
        const double moe = static_cast<double>(stage_layers(c, l, stage, true));
        double shared = dense * dense_layer + moe * non_expert_moe_layer;
        if (stage == 0) shared += p.embedding;
        if (stage == l.pp - 1) shared += c.tied_embeddings && l.pp > 1 ? p.embedding : p.head;
        shared /= l.tp;
        const double experts = moe * routed / (static_cast<double>(l.ep) * l.tp);
        MemoryPerGpu mem;
        mem.stage = stage;
        mem.capacity = capacity;
        mem.params = shared + experts;
        mem.expert_params = experts;
        const double sharded = shared / dp_shards + experts / expert_shards;
        mem.state_shards = mem.params / sharded;
        mem.weights = kWeightBytes * (l.zero >= 3 ? sharded : mem.params);
        mem.gradients = kGradientBytes * (l.zero >= 2 ? sharded : mem.params);
        mem.optimizer = kOptimizerBytes * (l.zero >= 1 ? sharded : mem.params);
        const double in_flight =
            l.pp == 1 ? 1.0
                      : std::min(m, static_cast<double>(l.pp - stage)) *
                            (l.vpp > 1 ? 1.0 + (l.pp - 1.0) / (l.pp * l.vpp) : 1.0);
        const double per_mb = dense * layer_activation_bytes(c, l, false) + moe * layer_activation_bytes(c, l, true);
        mem.activations = in_flight * per_mb;
        if (l.recompute == Recompute::full) {
            // Backward recomputes one layer at a time and holds its full activations.
            Layout kept = l;
            kept.recompute = Recompute::none;
            mem.activations += layer_activation_bytes(c, kept, moe > 0);
        }
        if (stage == l.pp - 1)  // bf16 logits and their fp32 copy for the loss, over this rank's vocabulary
            mem.activations += static_cast<double>(tokens_per_gpu(l)) * static_cast<double>(c.vocab / l.tp) * 6;
        const int comms = (l.tp > 1) + (l.dp > 1) + (l.pp > 1) + (l.cp > 1) + (l.ep > 1);
        mem.buffers = kNcclBuffers * comms;
        if (stage == 0 || mem.total() > best.total()) best = mem;
    }
    return best;
}

}  // namespace collsim
