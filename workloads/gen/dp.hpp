#pragma once
// Data parallelism: every rank runs the same forward and backward pass over
// its share of the batch, then gradients are summed across ranks.
//   DDP: gradients fill fixed-size buckets (PyTorch DDP's bucket_cap_mb,
//   25 MiB by default) in the order backward produces them (last layer
//   first); each full bucket is AllReduced on the communication stream,
//   overlapping the rest of backward, or, with overlap off, all after it.
//   ZeRO-3 / FSDP: each layer's parameters are AllGathered before its forward
//   and again before its backward, and its gradients ReduceScattered after
//   its backward; with overlap on the next layer's AllGather runs during the
//   current layer's compute (prefetch).
#include <optional>
#include <string>

#include "workloads/gen/trace_doc.hpp"

namespace collsim::gen {

struct DpOptions {
    std::string name = "dp";
    int ranks = 8;
    int layers = 24;
    double params = 0;                // whole model
    std::optional<Time> layer_time;   // forward time per layer, or:
    double layer_flops = 0;           // forward FLOPs per layer, or:
    int64_t tokens = 0;               // tokens per GPU per step (forward = 2 x params x tokens FLOPs)
    double backward_factor = 2.0;     // backward / forward
    int grad_bytes = 2;               // per gradient value (bf16)
    Bytes bucket{25 << 20};           // 0: one AllReduce of every gradient
    bool overlap = true;
    bool zero = false;
    Time optimizer{};
    GpuSpec gpu;
};

// Throws std::invalid_argument naming the option that is out of range.
Json generate_dp(const DpOptions& o, const std::string& command);

}  // namespace collsim::gen
