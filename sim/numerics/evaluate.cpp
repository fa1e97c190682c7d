#include "sim/numerics/evaluate.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>

namespace collsim {

namespace {
constexpr std::size_t kBlock = 4096;

int format_bytes(FloatFormat f) { return f == FloatFormat::fp32 ? 4 : 2; }

// Evaluates tree nodes over one block of elements, one scratch buffer per
// depth so deep trees (a ring's chain of n-1 additions) allocate once.
class BlockEvaluator {
public:
    BlockEvaluator(const CombineTree& t, const InputData& in, FloatFormat accum) : t_(t), in_(in), accum_(accum) {}

    // Leaves also add into the exact sums when `exact` is set.
    void run(int32_t node, int64_t first, std::size_t count, const float* scales, float* out, double* exact,
             double* compensation, double* magnitude) {
        first_ = first;
        count_ = count;
        scales_ = scales;
        exact_ = exact;
        comp_ = compensation;
        mag_ = magnitude;
        eval(node, 0, out);
    }

private:
    void eval(int32_t node, std::size_t depth, float* out) {
        const auto& n = t_.nodes[static_cast<std::size_t>(node)];
        if (n.rank >= 0) {
            in_.fill(n.rank, first_, count_, scales_, out);
            if (exact_)
                for (std::size_t i = 0; i < count_; ++i) {
                    // Neumaier's compensated summation in double.
                    const double x = out[i], s = exact_[i] + x;
                    comp_[i] += std::fabs(exact_[i]) >= std::fabs(x) ? (exact_[i] - s) + x : (x - s) + exact_[i];
                    exact_[i] = s;
                    mag_[i] += std::fabs(x);
                }
            return;
        }
        if (scratch_.size() <= depth) scratch_.emplace_back(kBlock);
        eval(n.left, depth + 1, out);
        float* other = scratch_[depth].data();
        eval(n.right, depth + 1, other);
        for (std::size_t i = 0; i < count_; ++i) out[i] = round_to(accum_, out[i] + other[i]);
    }

    const CombineTree& t_;
    const InputData& in_;
    FloatFormat accum_;
    std::vector<std::vector<float>> scratch_;
    int64_t first_ = 0;
    std::size_t count_ = 0;
    const float* scales_ = nullptr;
    double *exact_ = nullptr, *comp_ = nullptr, *mag_ = nullptr;
};
}  // namespace

double summation_bound_factor(int n, double u) {
    const double k = (n - 1) * u;
    return k >= 1 ? INFINITY : k / (1 - k);
}

ReductionStats evaluate_tree(const CombineTree& t, const InputData& in, Accumulation acc, int64_t elements) {
    ReductionStats st;
    st.result.assign(static_cast<std::size_t>(elements), 0.0f);
    const int es = format_bytes(acc.data);
    const double gamma = summation_bound_factor(t.ranks, unit_roundoff(acc.accum));
    const double final_rounding = acc.accum == acc.data ? 0.0 : unit_roundoff(acc.data);
    BlockEvaluator ev(t, in, acc.accum);
    std::map<int32_t, bool> complete;
    std::vector<float> scales(kBlock), first(kBlock), other(kBlock);
    std::vector<double> exact(kBlock), comp(kBlock), mag(kBlock);
    double rel_sum = 0;
    int64_t rel_count = 0;

    for (std::size_t c = 0; c + 1 < t.chunk_offset.size(); ++c) {
        const int64_t lo = std::min(elements, t.chunk_offset[c] / es);
        const int64_t hi = std::min(elements, t.chunk_offset[c + 1] / es);
        std::vector<int32_t> roots;  // distinct finished results of this chunk, in rank order
        for (const auto& per_rank : t.root) {
            const int32_t r = per_rank[c];
            auto it = complete.find(r);
            if (it == complete.end()) it = complete.emplace(r, t.complete(r)).first;
            if (it->second && std::find(roots.begin(), roots.end(), r) == roots.end()) roots.push_back(r);
        }
        if (roots.empty()) continue;
        for (int64_t b = lo; b < hi; b += static_cast<int64_t>(kBlock)) {
            const std::size_t n = static_cast<std::size_t>(std::min<int64_t>(kBlock, hi - b));
            in.element_scales(b, n, scales.data());
            std::fill_n(exact.begin(), n, 0.0);
            std::fill_n(comp.begin(), n, 0.0);
            std::fill_n(mag.begin(), n, 0.0);
            for (std::size_t k = 0; k < roots.size(); ++k) {
                float* out = k == 0 ? first.data() : other.data();
                ev.run(roots[k], b, n, scales.data(), out, k == 0 ? exact.data() : nullptr, comp.data(), mag.data());
                for (std::size_t i = 0; i < n; ++i) {
                    const float r = round_to(acc.data, out[i]);
                    if (k == 0) {
                        exact[i] += comp[i];
                        st.result[static_cast<std::size_t>(b) + i] = r;
                    } else if (std::bit_cast<uint32_t>(r) != std::bit_cast<uint32_t>(first[i])) {
                        st.ranks_bitwise_identical = false;
                    }
                    if (k == 0) first[i] = r;
                    const double err = std::fabs(static_cast<double>(r) - exact[i]);
                    if (exact[i] != 0) {
                        const double rel = err / std::fabs(exact[i]);
                        st.max_rel_error = std::max(st.max_rel_error, rel);
                        if (k == 0) rel_sum += rel, ++rel_count;
                    }
                    const float rounded_exact = round_to(acc.data, static_cast<float>(exact[i]));
                    st.max_ulp = std::max(st.max_ulp, ulp_distance(acc.data, r, rounded_exact));
                    const double bound = gamma * mag[i] + final_rounding * std::fabs(exact[i]);
                    if (std::isinf(gamma)) st.max_bound_ratio = INFINITY;  // no finite bound to use up
                    else if (bound > 0) st.max_bound_ratio = std::max(st.max_bound_ratio, err / bound);
                }
            }
        }
        st.elements += hi - lo;
    }
    st.mean_rel_error = rel_count ? rel_sum / static_cast<double>(rel_count) : 0.0;
    return st;
}

}  // namespace collsim
