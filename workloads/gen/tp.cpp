#include "workloads/gen/tp.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace collsim::gen {

namespace {
// attention -> AllReduce -> MLP -> AllReduce, each after the one before.
std::vector<Json> block_pair(const std::string& prefix, const LayerCost& first, const LayerCost& second,
                             const char* first_name, const char* second_name, Bytes ar, const std::string& comm,
                             const Names& after) {
    // Megatron issues these AllReduces on the compute stream: the next block
    // cannot start before the sum is in place.
    const std::string a = prefix + first_name, b = prefix + second_name;
    return {roofline_op(a, first.flops, first.memory, after, "compute"),
            collective_op(a + ".ar", "allreduce", ar, comm, {a}, "compute"),
            roofline_op(b, second.flops, second.memory, {a + ".ar"}, "compute"),
            collective_op(b + ".ar", "allreduce", ar, comm, {b}, "compute")};
}

LayerCost twice(LayerCost c) {
    c.flops *= 2;
    c.memory = c.memory * 2;
    return c;
}
}  // namespace

std::vector<Json> tp_layer_forward(const std::string& prefix, const LayerShape& s, const std::string& comm,
                                   const Names& after) {
    return block_pair(prefix, attention_forward(s), mlp_forward(s), "attn", "mlp", activation_bytes(s, s.seq), comm,
                      after);
}

std::vector<Json> tp_layer_backward(const std::string& prefix, const LayerShape& s, const std::string& comm,
                                    const Names& after) {
    // Backward visits the MLP first; each block's input gradient is AllReduced.
    return block_pair(prefix, twice(mlp_forward(s)), twice(attention_forward(s)), "mlp_bwd", "attn_bwd",
                      activation_bytes(s, s.seq), comm, after);
}

Json generate_tp(const TpOptions& o, const std::string& command) {
    if (o.layers < 1) throw std::invalid_argument("--layers: at least 1");
    if (o.shape.tp < 1) throw std::invalid_argument("--tp: at least 1");
    if (o.mode != "train" && o.mode != "prefill" && o.mode != "decode")
        throw std::invalid_argument("--mode: one of train, prefill, decode");
    if (o.tokens < 1) throw std::invalid_argument("--tokens: at least 1");
    TraceDoc doc(o.name, o.shape.tp, command,
                 fmt::format("tensor parallel ({}) over {} GPUs: {} layers, hidden {}, batch {}{}", o.mode, o.shape.tp,
                             o.layers, o.shape.hidden, o.shape.batch,
                             o.mode == "decode" ? fmt::format(", {} tokens after a {}-token prompt", o.tokens, o.shape.seq)
                                                : fmt::format(", sequence {}", o.shape.seq)));
    doc.gpu(o.gpu);
    doc.communicator("tp", "all");
    std::vector<Json> ops;
    Names last;
    auto append = [&](std::vector<Json> layer) {
        last = {layer.back()["name"].get<std::string>()};
        for (auto& op : layer) ops.push_back(std::move(op));
    };
    if (o.mode == "decode") {
        const Bytes ar = activation_bytes(o.shape, 1);
        for (int t = 0; t < o.tokens; ++t)
            for (int l = 0; l < o.layers; ++l)
                append(block_pair(fmt::format("T{}.L{}.", t, l), attention_decode(o.shape, o.shape.seq + t),
                                  mlp_decode(o.shape), "attn", "mlp", ar, "tp", last));
    } else {
        for (int l = 0; l < o.layers; ++l) append(tp_layer_forward(fmt::format("L{}.", l), o.shape, "tp", last));
        if (o.mode == "train")
            for (int l = o.layers - 1; l >= 0; --l)
                append(tp_layer_backward(fmt::format("L{}.", l), o.shape, "tp", last));
    }
    doc.program(std::move(ops));
    return doc.document();
}

}  // namespace collsim::gen
