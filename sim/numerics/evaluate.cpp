#include "sim/numerics/evaluate.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <thread>

namespace collsim {

namespace {
constexpr std::size_t kBlock = 4096;

int format_bytes(FloatFormat f) { return f == FloatFormat::fp32 ? 4 : 2; }

template <FloatFormat F>
void add_rounded(float* out, const float* other, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = round_as<F>(out[i] + other[i]);
}

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
            if (exact_) accumulate_exact(out);
            return;
        }
        if (scratch_.size() <= depth) scratch_.emplace_back(kBlock);
        eval(n.left, depth + 1, out);
        float* other = scratch_[depth].data();
        eval(n.right, depth + 1, other);
        switch (accum_) {
            case FloatFormat::fp32: add_rounded<FloatFormat::fp32>(out, other, count_); break;
            case FloatFormat::bf16: add_rounded<FloatFormat::bf16>(out, other, count_); break;
            case FloatFormat::fp16: add_rounded<FloatFormat::fp16>(out, other, count_); break;
        }
    }

    // Neumaier's compensated summation in double.
    void accumulate_exact(const float* x) {
        for (std::size_t i = 0; i < count_; ++i) {
            const double v = x[i], s = exact_[i] + v;
            comp_[i] += std::fabs(exact_[i]) >= std::fabs(v) ? (exact_[i] - s) + v : (v - s) + exact_[i];
            exact_[i] = s;
            mag_[i] += std::fabs(v);
        }
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

struct ChunkStats {
    double max_rel = 0, rel_sum = 0, max_bound = 0;
    int64_t rel_count = 0, max_ulp = 0, elements = 0;
    bool identical = true;
};

// The distinct finished results of chunk c, in rank order.
std::vector<int32_t> finished_roots(const CombineTree& t, std::size_t c) {
    std::vector<int32_t> roots;
    for (const auto& per_rank : t.root) {
        const int32_t r = per_rank[c];
        if (std::find(roots.begin(), roots.end(), r) == roots.end() && t.complete(r)) roots.push_back(r);
    }
    return roots;
}

ChunkStats evaluate_chunk(const CombineTree& t, const InputData& in, Accumulation acc, int64_t lo, int64_t hi,
                          const std::vector<int32_t>& roots, BlockEvaluator& ev, float* result) {
    ChunkStats cs;
    cs.elements = hi - lo;
    const double gamma = summation_bound_factor(t.ranks, unit_roundoff(acc.accum));
    const double final_rounding = acc.accum == acc.data ? 0.0 : unit_roundoff(acc.data);
    std::vector<float> scales(kBlock), first(kBlock), other(kBlock);
    std::vector<double> exact(kBlock), comp(kBlock), mag(kBlock);
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
                    first[i] = r;
                    result[b - lo + static_cast<int64_t>(i)] = r;
                } else if (std::bit_cast<uint32_t>(r) != std::bit_cast<uint32_t>(first[i])) {
                    cs.identical = false;
                }
                const double err = std::fabs(static_cast<double>(r) - exact[i]);
                if (exact[i] != 0) {
                    const double rel = err / std::fabs(exact[i]);
                    cs.max_rel = std::max(cs.max_rel, rel);
                    if (k == 0) cs.rel_sum += rel, ++cs.rel_count;
                }
                cs.max_ulp = std::max(cs.max_ulp, ulp_distance(acc.data, r, round_to(acc.data, static_cast<float>(exact[i]))));
                const double bound = gamma * mag[i] + final_rounding * std::fabs(exact[i]);
                if (std::isinf(gamma)) cs.max_bound = INFINITY;  // no finite bound to use up
                else if (bound > 0) cs.max_bound = std::max(cs.max_bound, err / bound);
            }
        }
    }
    return cs;
}
}  // namespace

double summation_bound_factor(int n, double u) {
    const double k = (n - 1) * u;
    return k >= 1 ? INFINITY : k / (1 - k);
}

ReductionStats evaluate_tree(const CombineTree& t, const InputData& in, Accumulation acc, int64_t elements) {
    ReductionStats st;
    st.result.assign(static_cast<std::size_t>(elements), 0.0f);
    const int es = format_bytes(acc.data);
    const std::size_t chunks = t.chunk_offset.size() - 1;
    std::vector<ChunkStats> per_chunk(chunks);
    // Chunks are independent: split them over the cores, then merge in chunk
    // order so the sums (and so the report) do not depend on thread timing.
    const unsigned workers = std::max(1u, std::min(std::thread::hardware_concurrency(), 8u));
    auto work = [&](unsigned w) {
        BlockEvaluator ev(t, in, acc.accum);
        for (std::size_t c = w; c < chunks; c += workers) {
            const int64_t lo = std::min(elements, t.chunk_offset[c] / es);
            const int64_t hi = std::min(elements, t.chunk_offset[c + 1] / es);
            const std::vector<int32_t> roots = finished_roots(t, c);
            if (roots.empty() || lo >= hi) continue;
            per_chunk[c] = evaluate_chunk(t, in, acc, lo, hi, roots, ev, st.result.data() + lo);
        }
    };
    std::vector<std::thread> threads;
    for (unsigned w = 1; w < workers; ++w) threads.emplace_back(work, w);
    work(0);
    for (auto& th : threads) th.join();

    double rel_sum = 0;
    int64_t rel_count = 0;
    for (const ChunkStats& cs : per_chunk) {
        st.max_rel_error = std::max(st.max_rel_error, cs.max_rel);
        st.max_ulp = std::max(st.max_ulp, cs.max_ulp);
        st.max_bound_ratio = std::max(st.max_bound_ratio, cs.max_bound);
        st.ranks_bitwise_identical = st.ranks_bitwise_identical && cs.identical;
        st.elements += cs.elements;
        rel_sum += cs.rel_sum;
        rel_count += cs.rel_count;
    }
    st.mean_rel_error = rel_count ? rel_sum / static_cast<double>(rel_count) : 0.0;
    return st;
}

}  // namespace collsim
