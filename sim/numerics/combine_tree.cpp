#include "sim/numerics/combine_tree.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/core/random.hpp"
#include "sim/exec/interpret.hpp"

namespace collsim {

namespace {
void count_leaves(const CombineTree& t, int32_t node, std::vector<int>& seen) {
    const auto& n = t.nodes[static_cast<std::size_t>(node)];
    if (n.rank >= 0) {
        ++seen[static_cast<std::size_t>(n.rank)];
        return;
    }
    count_leaves(t, n.left, seen);
    count_leaves(t, n.right, seen);
}
}  // namespace

bool CombineTree::complete(int32_t node) const {
    if (node < 0) return false;
    std::vector<int> seen(static_cast<std::size_t>(ranks), 0);
    count_leaves(*this, node, seen);
    for (int c : seen)
        if (c != 1) return false;
    return true;
}

std::string CombineTree::describe(int32_t node) const {
    const auto& n = nodes[static_cast<std::size_t>(node)];
    if (n.rank >= 0) return fmt::format("r{}", n.rank);
    return fmt::format("({}+{})", describe(n.left), describe(n.right));
}

std::vector<uint64_t> CombineTree::root_shapes() const {
    // Children always precede their parent, so one pass in index order works.
    std::vector<uint64_t> h(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const Node& n = nodes[i];
        if (n.rank >= 0) {
            h[i] = mix64(static_cast<uint64_t>(n.rank) + 1);
            continue;
        }
        const uint64_t a = h[static_cast<std::size_t>(n.left)], b = h[static_cast<std::size_t>(n.right)];
        h[i] = mix64(std::min(a, b) * 0x9e3779b97f4a7c15ULL + std::max(a, b));
    }
    std::vector<uint64_t> out;
    for (const auto& per_rank : root)
        for (int32_t r : per_rank) out.push_back(r >= 0 ? h[static_cast<std::size_t>(r)] : 0);
    return out;
}

CombineTree combine_tree(const Schedule& s, CollOp op, const std::vector<StepId>& order) {
    if (op != CollOp::allreduce && op != CollOp::reducescatter && op != CollOp::reduce)
        throw std::logic_error("combine trees exist for reductions only");
    CombineTree t;
    t.ranks = s.ranks;
    std::vector<int64_t> chunk_bytes(static_cast<std::size_t>(s.chunks), 0);
    for (const Step& step : s.steps)
        chunk_bytes[static_cast<std::size_t>(step.chunk)] =
            std::max(chunk_bytes[static_cast<std::size_t>(step.chunk)], step.bytes.count());
    t.chunk_offset.assign(1, 0);
    for (int64_t b : chunk_bytes) t.chunk_offset.push_back(t.chunk_offset.back() + b);

    // Every rank starts with its own input in every chunk.
    std::vector<std::vector<std::optional<int32_t>>> state(static_cast<std::size_t>(s.ranks));
    for (int r = 0; r < s.ranks; ++r) {
        t.nodes.push_back(CombineTree::Node{-1, -1, r});
        state[static_cast<std::size_t>(r)].assign(static_cast<std::size_t>(s.chunks), static_cast<int32_t>(r));
    }
    const std::string problem = interpret(s, order, state, [&t](int32_t mine, int32_t got) {
        t.nodes.push_back(CombineTree::Node{mine, got, -1});
        return static_cast<int32_t>(t.nodes.size() - 1);
    });
    if (!problem.empty()) throw std::logic_error(problem);
    t.root.assign(static_cast<std::size_t>(s.ranks), std::vector<int32_t>(static_cast<std::size_t>(s.chunks), -1));
    for (std::size_t r = 0; r < state.size(); ++r)
        for (std::size_t c = 0; c < state[r].size(); ++c) t.root[r][c] = state[r][c].value_or(-1);
    return t;
}

}  // namespace collsim
