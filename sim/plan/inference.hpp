#pragma once
// `plan --mode decode|prefill`: one forward pass of a batch through the
// model on a TP x PP layout. Decode produces one token for each of `batch`
// sequences that attend over `context` cached tokens: every matmul has
// `batch` rows, so it reads its weights from HBM for little work, and each
// layer's two TP AllReduces carry only batch x hidden values: at batch 1
// their latency, not their bandwidth, is what they cost. Prefill runs the
// `context` tokens of every sequence at once. Pipeline stages run one after
// another for one request (no other batch fills them).
#include <string>

#include "sim/plan/collective_costs.hpp"
#include "sim/plan/layout.hpp"
#include "sim/plan/model_card.hpp"
#include "sim/plan/planner.hpp"

namespace collsim {

enum class InferenceMode { decode, prefill };

struct InferenceRequest {
    InferenceMode mode = InferenceMode::decode;
    int tp = 1, pp = 1;
    int64_t batch = 1, context = 2048;
    int64_t new_tokens = 256;  // decode: tokens a request generates
    FlopType dtype = FlopType::bf16;
};

struct InferenceResult {
    std::string model;
    InferenceRequest request;
    double per_token = 0;    // decode: one step (a token for every sequence); prefill: the pass / tokens
    double per_request = 0;  // decode: new_tokens steps; prefill: the pass
    double layer_compute = 0, tp_allreduce = 0;  // one layer, one AllReduce (seconds)
    double pp_transfer = 0;
    double tp_share = 0;     // share of the pass spent in TP AllReduces
    std::string algo;        // of the TP AllReduce
    double weights = 0, kv_cache = 0, capacity = 0;  // bytes per GPU
    bool fits() const { return weights + kv_cache <= capacity; }
};

// Throws InputError when the layout does not divide the model or the GPUs.
void check_inference(const ModelCard& c, const InferenceRequest& q, int gpus, int gpus_per_node);

InferenceResult plan_inference(const ModelCard& c, const InferenceRequest& q, const PlanSettings& s,
                               CollectiveCosts& costs);

}  // namespace collsim
