#pragma once
// FLOPs, bytes and message sizes of a dense transformer layer, as the
// generators cost them. FLOP counts follow Narayanan et al., "Efficient
// Large-Scale Language Model Training on GPU Clusters Using Megatron-LM"
// (SC'21), section 5.1: a layer's forward pass over b sequences of s tokens
// with hidden size h takes 24bsh^2 + 4bs^2h FLOPs (ffn = 4h), the backward
// pass twice that. Tensor parallelism over t GPUs divides the matmuls by t.
#include <cstdint>

#include "sim/core/units.hpp"

namespace collsim::gen {

struct LayerShape {
    int64_t hidden = 4096;
    int64_t ffn = 0;        // 0: 4 x hidden
    int64_t seq = 2048;     // tokens per sequence
    int64_t batch = 1;      // sequences per micro-batch
    int tp = 1;             // tensor-parallel degree
    int value_bytes = 2;    // bf16 weights and activations

    int64_t ffn_size() const { return ffn > 0 ? ffn : 4 * hidden; }
};

struct LayerCost {
    double flops = 0;
    Bytes memory;  // HBM traffic: weights read plus activations in and out
};

// Parameters of one layer (QKV, projection, two MLP matrices; biases and
// norms are below a percent and left out), before tensor parallelism.
double layer_params(const LayerShape& s);

// Forward pass on one GPU of the tensor-parallel group, split as Megatron
// splits a layer: the attention block, then the MLP block, each followed by
// an AllReduce of the activations.
LayerCost attention_forward(const LayerShape& s);
LayerCost mlp_forward(const LayerShape& s);
// One decode step (one new token per sequence) attending over `context` cached tokens.
LayerCost attention_decode(const LayerShape& s, int64_t context);
LayerCost mlp_decode(const LayerShape& s);

// Bytes of each tensor-parallel AllReduce: the activations b x s x h.
Bytes activation_bytes(const LayerShape& s, int64_t tokens_per_sequence);

}  // namespace collsim::gen
