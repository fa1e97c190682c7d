#pragma once
// `plan --search`: every TP x PP x DP (x CP, x EP for MoE) factorisation of
// the GPUs and every micro-batch size that check_layout accepts, each planned;
// those that do not fit memory are dropped, the rest ranked by tokens/s
// (ties in layout order, so the ranking is the same on every run). A search
// spread over n processes gives process i the layouts whose index is i mod n.
#include <vector>

#include "sim/plan/planner.hpp"

namespace collsim {

struct SearchOptions {
    int gpus = 0, gpus_per_node = 8;
    Layout base;  // recompute, ZeRO, dtype, sequence, global batch, overlap come from it
    bool sp = true;  // sequence parallelism wherever tp > 1
    std::vector<int64_t> micro_batches{1, 2, 4, 8};
    int shard = 0, shards = 1;
};

struct SearchResult {
    int64_t valid = 0;    // layouts that divide the model and the GPUs (in this shard)
    int64_t refused = 0;  // of which did not fit memory
    std::vector<PlanResult> ranked;
};

// Layouts in the order the search visits them.
std::vector<Layout> candidate_layouts(const ModelCard& c, const SearchOptions& o);

SearchResult search_layouts(const ModelCard& c, const SearchOptions& o, const PlanSettings& s,
                            CollectiveCosts& costs);

}  // namespace collsim
