#include "workloads/gen/transformer.hpp"

namespace collsim::gen {

namespace {
Bytes bytes_of(double values, int value_bytes) { return Bytes(static_cast<int64_t>(values) * value_bytes); }
}  // namespace

double layer_params(const LayerShape& s) {
    const double h = static_cast<double>(s.hidden), f = static_cast<double>(s.ffn_size());
    return 4 * h * h + 2 * h * f;
}

LayerCost attention_forward(const LayerShape& s) {
    const double b = static_cast<double>(s.batch), q = static_cast<double>(s.seq), h = static_cast<double>(s.hidden);
    // QKV and output projections 8bsh^2, scores and weighted values 4bs^2h.
    LayerCost c;
    c.flops = (8 * b * q * h * h + 4 * b * q * q * h) / s.tp;
    c.memory = bytes_of(4 * h * h / s.tp + 4 * b * q * h, s.value_bytes);
    return c;
}

LayerCost mlp_forward(const LayerShape& s) {
    const double b = static_cast<double>(s.batch), q = static_cast<double>(s.seq), h = static_cast<double>(s.hidden);
    const double f = static_cast<double>(s.ffn_size());
    LayerCost c;
    c.flops = 4 * b * q * h * f / s.tp;
    c.memory = bytes_of(2 * h * f / s.tp + 2 * b * q * h + 2 * b * q * f / s.tp, s.value_bytes);
    return c;
}

LayerCost attention_decode(const LayerShape& s, int64_t context) {
    const double b = static_cast<double>(s.batch), h = static_cast<double>(s.hidden);
    const double ctx = static_cast<double>(context);
    LayerCost c;
    c.flops = (8 * b * h * h + 4 * b * ctx * h) / s.tp;
    // Weights, and the K and V caches of every sequence, are read once per token.
    c.memory = bytes_of(4 * h * h / s.tp + 2 * b * ctx * h / s.tp, s.value_bytes);
    return c;
}

LayerCost mlp_decode(const LayerShape& s) {
    const double b = static_cast<double>(s.batch), h = static_cast<double>(s.hidden);
    const double f = static_cast<double>(s.ffn_size());
    LayerCost c;
    c.flops = 4 * b * h * f / s.tp;
    c.memory = bytes_of(2 * h * f / s.tp, s.value_bytes);
    return c;
}

Bytes activation_bytes(const LayerShape& s, int64_t tokens_per_sequence) {
    return Bytes(s.batch * tokens_per_sequence * s.hidden * s.value_bytes);
}

}  // namespace collsim::gen
