#include "workloads/gen/dp.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace collsim::gen {

namespace {
std::string F(int l) { return fmt::format("F{}", l); }
std::string B(int l) { return fmt::format("B{}", l); }

// Forward compute of one layer, by whichever cost the options give.
Json forward_op(const DpOptions& o, const std::string& name, double factor, const Names& after) {
    if (o.layer_time) return compute_op(name, Time::from_ps(static_cast<int64_t>(o.layer_time->ps() * factor)), after);
    const double flops = o.layer_flops > 0 ? o.layer_flops : 2 * (o.params / o.layers) * static_cast<double>(o.tokens);
    return roofline_op(name, flops * factor, Bytes(static_cast<int64_t>(o.params / o.layers) * o.grad_bytes), after);
}

void ddp(const DpOptions& o, std::vector<Json>& ops) {
    const Bytes layer_grads(static_cast<int64_t>(o.params / o.layers) * o.grad_bytes);
    // Buckets over the gradient bytes in the order backward produces them.
    const int64_t total = layer_grads.count() * o.layers;
    const int64_t cap = o.bucket.count() > 0 ? o.bucket.count() : total;
    Names ars;
    int64_t filled = 0;  // gradient bytes produced so far
    int bucket = 0;
    for (int l = o.layers - 1; l >= 0; --l) {
        filled += layer_grads.count();
        // Every bucket whose last byte this layer produced is ready after its backward.
        while (filled >= static_cast<int64_t>(bucket + 1) * cap || (l == 0 && bucket * cap < total)) {
            const int64_t bytes = std::min(cap, total - static_cast<int64_t>(bucket) * cap);
            const std::string name = fmt::format("AR{}", bucket);
            ops.push_back(collective_op(name, "allreduce", Bytes(bytes), "dp", {o.overlap ? B(l) : B(0)}));
            ars.push_back(name);
            ++bucket;
        }
    }
    ops.push_back(compute_op("optimizer", o.optimizer, {ars.back()}));
}

void fsdp(const DpOptions& o, std::vector<Json>& ops) {
    const Bytes layer_params(static_cast<int64_t>(o.params / o.layers) * o.grad_bytes);
    // The compute ops in order (F0 .. F{L-1}, B{L-1} .. B0), each preceded by
    // the AllGather of its layer. A gather waits for the compute two ops back
    // with overlap (FSDP's limit_all_gathers keeps two in flight), for the one
    // just before without. Gathers and reductions have streams of their own,
    // as in FSDP, so neither queues behind the other.
    Names compute;
    for (int l = 0; l < o.layers; ++l) compute.push_back(F(l));
    for (int l = o.layers - 1; l >= 0; --l) compute.push_back(B(l));
    const std::size_t lag = o.overlap ? 2 : 1;
    for (std::size_t i = 0; i < compute.size(); ++i) {
        const int l = i < static_cast<std::size_t>(o.layers) ? static_cast<int>(i)
                                                             : o.layers - 1 - static_cast<int>(i - o.layers);
        const bool forward = i < static_cast<std::size_t>(o.layers);
        const std::string name = (forward ? "AG" : "AGb") + std::to_string(l);
        ops.push_back(collective_op(name, "allgather", layer_params, "dp", i >= lag ? Names{compute[i - lag]} : Names{},
                                    "allgather"));
        if (i >= static_cast<std::size_t>(o.layers))
            ops.push_back(
                collective_op(fmt::format("RS{}", l), "reducescatter", layer_params, "dp", {B(l)}, "reducescatter"));
    }
    ops.push_back(compute_op("optimizer", o.optimizer, {"RS0"}));
}
}  // namespace

Json generate_dp(const DpOptions& o, const std::string& command) {
    if (o.ranks < 1) throw std::invalid_argument("--ranks: at least 1");
    if (o.layers < 1) throw std::invalid_argument("--layers: at least 1");
    if (o.params <= 0) throw std::invalid_argument("--params: the model's parameter count, above 0");
    const int costs = (o.layer_time ? 1 : 0) + (o.layer_flops > 0 ? 1 : 0) + (o.tokens > 0 ? 1 : 0);
    if (costs != 1) throw std::invalid_argument("--layer-time, --layer-flops or --tokens: exactly one of them");
    if (o.bucket.count() < 0) throw std::invalid_argument("--bucket: a size, or 0 for one AllReduce");
    TraceDoc doc(o.name, o.ranks, command,
                 fmt::format("data parallel over {} ranks: {} layers, {:.4g} parameters, {}{}", o.ranks, o.layers,
                             o.params, o.zero ? "ZeRO-3/FSDP" : "DDP",
                             o.overlap ? ", communication overlapped with compute" : ", no overlap"));
    if (!o.layer_time) doc.gpu(o.gpu);
    doc.communicator("dp", "all");
    std::vector<Json> ops;
    for (int l = 0; l < o.layers; ++l) {
        Names after = o.zero ? Names{fmt::format("AG{}", l)} : Names{};
        ops.push_back(forward_op(o, F(l), 1.0, after));
    }
    for (int l = o.layers - 1; l >= 0; --l) {
        Names after = o.zero ? Names{fmt::format("AGb{}", l)} : Names{};
        ops.push_back(forward_op(o, B(l), o.backward_factor, after));
    }
    if (o.zero) fsdp(o, ops);
    else ddp(o, ops);
    doc.program(std::move(ops));
    return doc.document();
}

}  // namespace collsim::gen
