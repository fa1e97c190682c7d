#pragma once
// Memory per GPU of a training layout, on the most loaded pipeline stage.
// Model states follow ZeRO's accounting (Rajbhandari et al., SC'20, section
// 3.1): mixed-precision Adam keeps 2 bytes of bf16 weights, 2 of gradients
// and 12 of optimizer states (fp32 weights, momentum, variance) per
// parameter; ZeRO stage 1 shards the optimizer states over the data-parallel
// group, stage 2 the gradients too, stage 3 the weights too. Activations
// follow Korthikanti et al. (MLSys 2023, section 4) with flash attention (no
// s^2 score matrix is stored): what each layer's backward needs, cut over TP
// (the hidden-size tensors only with sequence parallelism), times the
// micro-batches 1F1B keeps in flight on the first stage.
#include <string>

#include "sim/plan/layout.hpp"
#include "sim/plan/model_card.hpp"

namespace collsim {

struct MemoryPerGpu {
    double weights = 0, gradients = 0, optimizer = 0, activations = 0, buffers = 0;  // bytes
    double capacity = 0;
    double params = 0;         // parameters this GPU holds before ZeRO-3 sharding (its stage's share)
    double expert_params = 0;  // of which routed experts (synchronised over the expert-data-parallel group)
    double state_shards = 1;   // how many ways the optimizer step's states are cut (ZeRO >= 1)
    int stage = 0;             // the pipeline stage these figures are for
    double total() const { return weights + gradients + optimizer + activations + buffers; }
    bool fits() const { return total() <= capacity; }
};

// Layers (dense or MoE) that pipeline stage `stage` holds: the model is cut
// into pp x vpp chunks of consecutive layers, chunk j on stage j mod pp.
int64_t stage_layers(const ModelCard& c, const Layout& l, int stage, bool moe_layers);

MemoryPerGpu memory_per_gpu(const ModelCard& c, const Layout& l, double capacity);

// Activation bytes one layer keeps for its backward, per micro-batch, on one GPU.
double layer_activation_bytes(const ModelCard& c, const Layout& l, bool moe_layer);

}  // namespace collsim
