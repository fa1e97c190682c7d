#pragma once
// Tensor parallelism as Megatron-LM splits a transformer layer over t GPUs:
// the attention block and the MLP block each end in an AllReduce of the
// activations, so a layer's forward pass issues 2 AllReduces and its backward
// pass 2 more (Shoeybi et al., "Megatron-LM", 2019, section 3, figure 3).
// Modes: train (forward and backward), prefill (forward over the prompt) and
// decode (one token per sequence per step, batch-size-1 inference when
// batch = 1), each layer costed by the GPU's roofline.
#include <string>

#include "workloads/gen/trace_doc.hpp"
#include "workloads/gen/transformer.hpp"

namespace collsim::gen {

struct TpOptions {
    std::string name = "tp";
    std::string mode = "train";  // train, prefill, decode
    int layers = 32;
    LayerShape shape;            // shape.tp is the rank count
    int tokens = 1;              // decode: tokens generated
    GpuSpec gpu;
};

Json generate_tp(const TpOptions& o, const std::string& command);

// One layer's tensor-parallel ops in forward order (attention, AllReduce, MLP,
// AllReduce) on communicator `comm`, after `after`; names get `prefix`.
// Returns the ops; the last is the layer's final AllReduce.
std::vector<Json> tp_layer_forward(const std::string& prefix, const LayerShape& s, const std::string& comm,
                                   const Names& after);
std::vector<Json> tp_layer_backward(const std::string& prefix, const LayerShape& s, const std::string& comm,
                                    const Names& after);

}  // namespace collsim::gen
