#include "workloads/gen/moe.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "workloads/gen/skewed_routing.hpp"

namespace collsim::gen {

Json generate_moe(const MoeOptions& o, const std::string& command) {
    if (o.ranks < 2) throw std::invalid_argument("--ranks: at least 2");
    if (o.experts < o.ranks || o.experts % o.ranks != 0) throw std::invalid_argument("--experts: a multiple of --ranks");
    if (o.top_k < 1 || o.top_k > o.experts) throw std::invalid_argument("--top-k: from 1 to --experts");
    if (o.tokens < 1 || o.layers < 1) throw std::invalid_argument("--tokens and --layers: at least 1");
    if (o.skew < 0) throw std::invalid_argument("--skew: 0 (uniform) or more");
    TraceDoc doc(o.name, o.ranks, command,
                 fmt::format("MoE expert parallel over {} ranks: {} layers, {} experts, top-{}, {} tokens per rank, "
                             "routing skew {} (seed {})",
                             o.ranks, o.layers, o.experts, o.top_k, o.tokens, o.skew, o.seed));
    doc.gpu(o.gpu);
    doc.communicator("ep", "all");
    const double h = static_cast<double>(o.hidden), f = static_cast<double>(o.ffn), T = static_cast<double>(o.tokens);
    const int64_t token_bytes = o.hidden * 2;  // bf16 activations
    const int per_rank = o.experts / o.ranks;
    const Bytes expert_weights(static_cast<int64_t>(3 * h * f) * 2 * per_rank);
    // The shared program: even splits; every rank's real split is an override.
    const int64_t even = o.tokens * o.top_k / o.ranks * token_bytes;
    std::vector<Json> ops;
    Names last;
    for (int l = 0; l < o.layers; ++l) {
        const std::string p = fmt::format("L{}.", l);
        ops.push_back(roofline_op(p + "attn", 8 * T * h * h + 4 * T * static_cast<double>(o.seq) * h,
                                  Bytes(static_cast<int64_t>(4 * h * h) * 2 + o.tokens * token_bytes * 4), last,
                                  "compute"));
        ops.push_back(alltoallv_op(p + "dispatch", std::vector<Bytes>(static_cast<std::size_t>(o.ranks), Bytes(even)),
                                   "ep", {p + "attn"}, "compute"));
        ops.push_back(roofline_op(p + "experts", 6 * T * o.top_k * h * f, expert_weights, {p + "dispatch"}, "compute"));
        ops.push_back(alltoallv_op(p + "combine", std::vector<Bytes>(static_cast<std::size_t>(o.ranks), Bytes(even)),
                                   "ep", {p + "experts"}, "compute"));
        last = {p + "combine"};
    }
    doc.program(std::move(ops));
    SplitMix64 rng(o.seed);
    for (int l = 0; l < o.layers; ++l) {
        const auto counts = route_tokens(o.ranks, o.experts, o.tokens, o.top_k, o.skew, rng);
        // tokens[i][j]: from rank i to the experts on rank j.
        std::vector<std::vector<int64_t>> tokens(static_cast<std::size_t>(o.ranks),
                                                 std::vector<int64_t>(static_cast<std::size_t>(o.ranks), 0));
        for (int i = 0; i < o.ranks; ++i)
            for (int e = 0; e < o.experts; ++e)
                tokens[static_cast<std::size_t>(i)][static_cast<std::size_t>(e / per_rank)] +=
                    counts[static_cast<std::size_t>(i)][static_cast<std::size_t>(e)];
        const std::string p = fmt::format("L{}.", l);
        for (int i = 0; i < o.ranks; ++i) {
            Json dispatch = Json::array(), combine = Json::array();
            int64_t received = 0;
            for (int j = 0; j < o.ranks; ++j) {
                dispatch.push_back(tokens[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] * token_bytes);
                combine.push_back(tokens[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)] * token_bytes);
                received += tokens[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)];
            }
            const std::string r = std::to_string(i);
            doc.override_op(r, p + "dispatch", Json{{"split", std::move(dispatch)}});
            doc.override_op(r, p + "experts", Json{{"flops", fmt::format("{:.17g}", 6 * static_cast<double>(received) * h * f)}});
            doc.override_op(r, p + "combine", Json{{"split", std::move(combine)}});
        }
    }
    return doc.document();
}

}  // namespace collsim::gen
