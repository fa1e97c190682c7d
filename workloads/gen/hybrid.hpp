#pragma once
// 3D parallelism as Megatron-LM composes it (Narayanan et al., SC'21): tensor
// parallelism t inside each layer, pipeline parallelism p over the layers
// (GPipe or 1F1B over m microbatches), data parallelism d over replicas, with
// the DP gradient AllReduce bucketed (and overlapped with the last backward
// pass, or not). Ranks are laid out TP-innermost by default, so a TP group is
// t consecutive GPUs, inside one server when t divides its GPU count
// ("inside"); "across" makes TP the outermost dimension, so its groups span
// servers, to show what that placement costs.
#include <string>

#include "workloads/gen/pipeline.hpp"
#include "workloads/gen/transformer.hpp"

namespace collsim::gen {

struct HybridOptions {
    std::string name = "3d";
    int tp = 8, pp = 4, dp = 2;
    int layers = 32;  // whole model, split evenly over the stages
    LayerShape shape;  // per microbatch; shape.tp is set from tp
    int microbatches = 8;
    std::string schedule = "1f1b";
    std::string tp_placement = "inside";
    Bytes bucket{25 << 20};
    bool overlap = true;
    GpuSpec gpu;
};

Json generate_hybrid(const HybridOptions& o, const std::string& command);

}  // namespace collsim::gen
