#pragma once
// Expert parallelism for mixture-of-experts layers: each rank holds
// experts/ranks experts; per MoE layer, tokens are dispatched to their
// experts by an All-to-All, the experts compute, and a second All-to-All
// combines the results back (Lepikhin et al., "GShard", 2020). The routing is
// skewed and seeded (skewed_routing.hpp), so the All-to-Alls are uneven (each
// rank's split in the trace's per-rank overrides) and some ranks' experts get
// more work than others.
#include <cstdint>
#include <string>

#include "workloads/gen/trace_doc.hpp"

namespace collsim::gen {

struct MoeOptions {
    std::string name = "moe";
    int ranks = 64;
    int layers = 4;
    int experts = 64;  // a multiple of ranks
    int top_k = 2;
    int64_t tokens = 4096;  // per rank per layer
    int64_t hidden = 4096;
    int64_t ffn = 14336;  // expert FFN width (three matrices, SwiGLU)
    int64_t seq = 4096;   // attention context
    double skew = 1.0;
    uint64_t seed = 1;
    GpuSpec gpu;
};

Json generate_moe(const MoeOptions& o, const std::string& command);

}  // namespace collsim::gen
