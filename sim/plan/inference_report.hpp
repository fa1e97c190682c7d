#pragma once
// What `collsim plan --mode decode|prefill` prints. JSON keys: model, mode,
// batch, context, layout {tp, pp}, time_per_token_us, time_per_request_us,
// tp_allreduce_us_per_layer (both AllReduces of a layer), tp_share,
// memory_per_gpu {weights, kv_cache, total, capacity, fits; bytes}.
#include <string>

#include <nlohmann/json.hpp>

#include "sim/plan/inference.hpp"

namespace collsim {

nlohmann::ordered_json inference_json(const InferenceResult& r);
std::string render_inference_table(const InferenceResult& r);

}  // namespace collsim
