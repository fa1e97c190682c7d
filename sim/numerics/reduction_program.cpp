#include "sim/numerics/reduction_program.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "sim/numerics/vector_clones.hpp"

namespace collsim {

namespace {
class Compiler {
public:
    explicit Compiler(const CombineTree& t) : t_(t) {}

    ReductionProgram compile(int32_t root) {
        ReductionProgram p;
        p.slots = slots_needed(root);
        emit(root, 0, p.ops);
        return p;
    }

private:
    const CombineTree::Node& node(int32_t id) const {
        if (id < 0 || static_cast<std::size_t>(id) >= t_.nodes.size())
            throw std::logic_error("reduction program: node outside the combine tree");
        return t_.nodes[static_cast<std::size_t>(id)];
    }
    bool leaf(int32_t id) const { return node(id).rank >= 0; }

    // The operand computed first: never a leaf when the other is an inner
    // node (a leaf is added straight from the inputs), else the one needing
    // more slots.
    std::pair<int32_t, int32_t> heavier_first(const CombineTree::Node& n) {
        if (leaf(n.left) != leaf(n.right)) return leaf(n.left) ? std::pair{n.right, n.left} : std::pair{n.left, n.right};
        if (leaf(n.left)) return {n.left, n.right};
        return slots_needed(n.right) > slots_needed(n.left) ? std::pair{n.right, n.left} : std::pair{n.left, n.right};
    }

    int slots_needed(int32_t id) {
        if (leaf(id)) return 1;
        if (auto it = need_.find(id); it != need_.end()) return it->second;
        const auto [first, second] = heavier_first(node(id));
        const int need = leaf(second) ? slots_needed(first) : std::max(slots_needed(first), slots_needed(second) + 1);
        need_.emplace(id, need);
        return need;
    }

    void emit(int32_t id, int32_t slot, std::vector<ReductionOp>& ops) {
        const CombineTree::Node& n = node(id);
        if (n.rank >= 0) {
            ops.push_back({ReductionOp::load_input, slot, n.rank});
            return;
        }
        const auto [first, second] = heavier_first(n);
        emit(first, slot, ops);
        if (leaf(second)) {
            ops.push_back({ReductionOp::add_input, slot, node(second).rank});
            return;
        }
        emit(second, slot + 1, ops);
        ops.push_back({ReductionOp::add_slot, slot, slot + 1});
    }

    const CombineTree& t_;
    std::unordered_map<int32_t, int> need_;
};

template <FloatFormat F>
COLLSIM_VECTOR_CLONES void add_rounded(float* __restrict out, const float* __restrict other, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = round_as<F>(out[i] + other[i]);
}

template <FloatFormat F>
void run_as(const ReductionProgram& p, const float* const* inputs, std::size_t count, float* scratch,
            std::size_t stride) {
    for (const ReductionOp& op : p.ops) {
        float* dst = scratch + static_cast<std::size_t>(op.dst) * stride;
        switch (op.kind) {
            case ReductionOp::load_input: std::copy_n(inputs[op.src], count, dst); break;
            case ReductionOp::add_input: add_rounded<F>(dst, inputs[op.src], count); break;
            case ReductionOp::add_slot:
                add_rounded<F>(dst, scratch + static_cast<std::size_t>(op.src) * stride, count);
                break;
        }
    }
}
}  // namespace

ReductionProgram compile_reduction(const CombineTree& tree, int32_t root) { return Compiler(tree).compile(root); }

const float* run_reduction(const ReductionProgram& p, FloatFormat accum, const float* const* inputs,
                           std::size_t count, float* scratch, std::size_t stride) {
    switch (accum) {
        case FloatFormat::fp32: run_as<FloatFormat::fp32>(p, inputs, count, scratch, stride); break;
        case FloatFormat::bf16: run_as<FloatFormat::bf16>(p, inputs, count, scratch, stride); break;
        case FloatFormat::fp16: run_as<FloatFormat::fp16>(p, inputs, count, scratch, stride); break;
    }
    return scratch;
}

}  // namespace collsim
