#include "sim/plan/inference_report.hpp"

#include <fmt/format.h>

#include "sim/plan/plan_report.hpp"

namespace collsim {

namespace {
std::string_view mode_name(InferenceMode m) { return m == InferenceMode::decode ? "decode" : "prefill"; }
}  // namespace

nlohmann::ordered_json inference_json(const InferenceResult& r) {
    const InferenceRequest& q = r.request;
    nlohmann::ordered_json j;
    j["model"] = r.model;
    j["mode"] = mode_name(q.mode);
    j["batch"] = q.batch;
    j["context"] = q.context;
    j["layout"] = {{"tp", q.tp}, {"pp", q.pp}};
    j["time_per_token_us"] = r.per_token * 1e6;
    j["time_per_request_us"] = r.per_request * 1e6;
    j["tp_allreduce_us_per_layer"] = 2 * r.tp_allreduce * 1e6;
    j["tp_share"] = r.tp_share;
    j["memory_per_gpu"] = {{"weights", r.weights},
                           {"kv_cache", r.kv_cache},
                           {"total", r.weights + r.kv_cache},
                           {"capacity", r.capacity},
                           {"fits", r.fits()}};
    return j;
}

std::string render_inference_table(const InferenceResult& r) {
    const InferenceRequest& q = r.request;
    std::string out = fmt::format("# plan: {} {} on TP{} x PP{}, batch {}, context {}\n", r.model, mode_name(q.mode),
                                  q.tp, q.pp, q.batch, q.context);
    out += fmt::format("# memory per GPU: weights {}, KV cache {}, total {} of {}: {}\n", gib(r.weights),
                       gib(r.kv_cache), gib(r.weights + r.kv_cache), gib(r.capacity),
                       r.fits() ? "fits" : "DOES NOT FIT");
    if (q.mode == InferenceMode::decode)
        out += fmt::format("# time per token {:.1f} us (one for each of the {} sequences); per request of {} tokens "
                           "{:.1f} us\n",
                           r.per_token * 1e6, q.batch, q.new_tokens, r.per_request * 1e6);
    else
        out += fmt::format("# prefill {:.1f} us per batch ({:.3f} us per prompt token)\n", r.per_request * 1e6,
                           r.per_token * 1e6);
    out += fmt::format("# per layer: compute {:.2f} us, TP AllReduce {:.2f} us x 2 ({}), {:.1f}% of the pass in TP "
                       "AllReduces\n",
                       r.layer_compute * 1e6, r.tp_allreduce * 1e6, r.algo.empty() ? "no TP" : r.algo,
                       100 * r.tp_share);
    if (q.mode == InferenceMode::decode)
        out += "# note: every step attends over the full context; the cache's growth during the request is not "
               "modelled\n";
    return out;
}

}  // namespace collsim
