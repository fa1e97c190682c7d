#include "workloads/gen/hybrid.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "workloads/gen/rank_ranges.hpp"
#include "workloads/gen/tp.hpp"

namespace collsim::gen {

namespace {
struct Layout {
    bool inside = true;
    int t = 1, p = 1, d = 1;
    int stage_of(int r) const { return inside ? (r / t) % p : r % p; }
};

// The DP gradient buckets of one stage, each after the last backward of the layer that completes it.
void dp_buckets(const HybridOptions& o, int first_layer, int layers, const std::string& last_op,
                std::vector<Json>& ops) {
    const int64_t layer_grads = static_cast<int64_t>(layer_params(o.shape) / o.tp) * o.shape.value_bytes;
    const int64_t total = layer_grads * layers;
    const int64_t cap = o.bucket.count() > 0 ? o.bucket.count() : total;
    const int last_mb = o.microbatches - 1;
    Names ars;
    int64_t filled = 0;
    int bucket = 0;
    for (int l = first_layer + layers - 1; l >= first_layer; --l) {
        filled += layer_grads;
        while (filled >= (bucket + 1) * cap || (l == first_layer && bucket * cap < total)) {
            const std::string name = fmt::format("dp.AR{}", bucket);
            const std::string ready = o.overlap ? fmt::format("B{}.L{}.attn_bwd.ar", last_mb, l) : last_op;
            ops.push_back(collective_op(name, "allreduce", Bytes(std::min(cap, total - bucket * cap)), "dp", {ready},
                                        "dp"));
            ars.push_back(name);
            ++bucket;
        }
    }
    ops.push_back(compute_op("optimizer", Time{}, {ars.back()}));
}
}  // namespace

Json generate_hybrid(const HybridOptions& o, const std::string& command) {
    const auto sched = pipe_schedule_from(o.schedule);
    if (!sched) throw std::invalid_argument("--schedule: gpipe or 1f1b");
    if (o.tp < 1 || o.pp < 1 || o.dp < 1) throw std::invalid_argument("--tp, --pp, --dp: each at least 1");
    if (o.layers % o.pp != 0) throw std::invalid_argument("--layers: a multiple of --pp");
    if (o.tp_placement != "inside" && o.tp_placement != "across")
        throw std::invalid_argument("--tp-placement: inside or across");
    if (o.microbatches < 1) throw std::invalid_argument("--microbatches: at least 1");
    const Layout lay{o.tp_placement == "inside", o.tp, o.pp, o.dp};
    const int ranks = o.tp * o.pp * o.dp;
    LayerShape shape = o.shape;
    shape.tp = o.tp;
    TraceDoc doc(o.name, ranks, command,
                 fmt::format("3D parallel: TP {} ({} servers) x PP {} ({}, {} microbatches) x DP {}; {} layers, "
                             "hidden {}, micro-batch {} x {} tokens",
                             o.tp, lay.inside ? "inside" : "across", o.pp, o.schedule, o.microbatches, o.dp, o.layers,
                             shape.hidden, shape.batch, shape.seq));
    doc.gpu(o.gpu);
    if (lay.inside) {
        doc.communicator("tp", Json{{"blocks", o.tp}});
        doc.communicator("pp", Json{{"size", o.pp}, {"stride", o.tp}});
        doc.communicator("dp", Json{{"stride", o.tp * o.pp}});
    } else {
        doc.communicator("tp", Json{{"stride", o.pp * o.dp}});
        doc.communicator("pp", Json{{"blocks", o.pp}});
        doc.communicator("dp", Json{{"size", o.dp}, {"stride", o.pp}});
    }
    const int per_stage = o.layers / o.pp;
    // Megatron sends each TP rank's 1/t slice of the activations between stages (section 4.1).
    const Bytes activation(activation_bytes(shape, shape.seq).count() / o.tp);
    for (int s = 0; s < o.pp; ++s) {
        std::vector<Json> ops;
        std::string last_op;
        pipeline_stage(ops, *sched, o.pp, s, o.microbatches, PipeLinks{"pp", activation},
                       [&](bool forward, int i, const Names& after) {
                           std::vector<Json> pass;
                           Names prev = after;
                           for (int k = 0; k < per_stage; ++k) {
                               const int l = forward ? s * per_stage + k : s * per_stage + per_stage - 1 - k;
                               const std::string prefix = fmt::format("{}{}.L{}.", forward ? 'F' : 'B', i, l);
                               auto layer = forward ? tp_layer_forward(prefix, shape, "tp", prev)
                                                    : tp_layer_backward(prefix, shape, "tp", prev);
                               prev = {layer.back()["name"].get<std::string>()};
                               for (auto& op : layer) pass.push_back(std::move(op));
                           }
                           last_op = prev[0];
                           return pass;
                       });
        if (o.dp > 1) dp_buckets(o, s * per_stage, per_stage, last_op, ops);
        std::vector<int> members;
        for (int r = 0; r < ranks; ++r)
            if (lay.stage_of(r) == s) members.push_back(r);
        doc.program_for(rank_ranges(members), std::move(ops));
    }
    return doc.document();
}

}  // namespace collsim::gen
