#include "sim/numerics/evaluate.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <thread>

#include "sim/numerics/reduction_program.hpp"

namespace collsim {

namespace {
int format_bytes(FloatFormat f) { return f == FloatFormat::fp32 ? 4 : 2; }

struct ChunkStats {
    double max_rel = 0, rel_sum = 0, max_bound = 0, max_vs_abs_sum = 0;
    double error_sq = 0, exact_sq = 0;  // of the first program's result, for the normwise error
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

// What one worker thread reuses from chunk to chunk.
struct Workspace {
    ContributionBlock block;
    std::vector<float> scratch, first;
};

struct BoundTerms {
    double gamma, data_rounding, local_rounding;
};

ChunkStats evaluate_chunk(Accumulation acc, BoundTerms bound, int64_t lo, int64_t hi,
                          const std::vector<ReductionProgram>& programs, Workspace& w, float* result) {
    ChunkStats cs;
    cs.elements = hi - lo;
    const std::size_t stride = w.block.capacity();
    int slots = 1;
    for (const ReductionProgram& p : programs) slots = std::max(slots, p.slots);
    w.scratch.resize(static_cast<std::size_t>(slots) * stride);
    for (int64_t b = lo; b < hi; b += static_cast<int64_t>(stride)) {
        const std::size_t n = static_cast<std::size_t>(std::min<int64_t>(static_cast<int64_t>(stride), hi - b));
        w.block.load(b, n);
        const double *exact = w.block.exact(), *mag = w.block.magnitude();
        for (std::size_t k = 0; k < programs.size(); ++k) {
            const float* out =
                run_reduction(programs[k], acc.accum, w.block.rank_inputs(), n, w.scratch.data(), stride);
            for (std::size_t i = 0; i < n; ++i) {
                const float r = round_to(acc.data, out[i]);
                if (k == 0) {
                    w.first[i] = r;
                    result[b - lo + static_cast<int64_t>(i)] = r;
                } else if (std::bit_cast<uint32_t>(r) != std::bit_cast<uint32_t>(w.first[i])) {
                    cs.identical = false;
                }
                const double err = std::fabs(static_cast<double>(r) - exact[i]);
                if (k == 0) cs.error_sq += err * err, cs.exact_sq += exact[i] * exact[i];
                if (mag[i] > 0) cs.max_vs_abs_sum = std::max(cs.max_vs_abs_sum, err / mag[i]);
                if (exact[i] != 0) {
                    const double rel = err / std::fabs(exact[i]);
                    cs.max_rel = std::max(cs.max_rel, rel);
                    if (k == 0) cs.rel_sum += rel, ++cs.rel_count;
                }
                cs.max_ulp = std::max(cs.max_ulp, ulp_distance(acc.data, r, round_to(acc.data, static_cast<float>(exact[i]))));
                const double limit =
                    bound.gamma * mag[i] + bound.data_rounding * std::fabs(exact[i]) + bound.local_rounding * mag[i];
                if (std::isinf(bound.gamma)) cs.max_bound = INFINITY;  // no finite bound to use up
                else if (limit > 0) cs.max_bound = std::max(cs.max_bound, err / limit);
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

ReductionStats evaluate_tree(const CombineTree& t, const InputData& in, Accumulation acc, int64_t elements,
                             int contributions) {
    ReductionStats st;
    st.result.assign(static_cast<std::size_t>(elements), 0.0f);
    const int es = format_bytes(acc.data);
    const std::size_t chunks = t.chunk_offset.size() - 1;
    const int per_rank = contributions / t.ranks;
    const double data_rounding = acc.accum == acc.data ? 0.0 : unit_roundoff(acc.data);
    const BoundTerms bound{summation_bound_factor(t.ranks + per_rank - 1, unit_roundoff(acc.accum)), data_rounding,
                           per_rank > 1 ? data_rounding : 0.0};
    std::vector<ChunkStats> per_chunk(chunks);
    // Chunks are independent: split them over the cores, then merge in chunk
    // order so the sums (and so the report) do not depend on thread timing.
    const unsigned workers = std::max(1u, std::min(std::thread::hardware_concurrency(), 8u));
    auto work = [&](unsigned worker) {
        Workspace w{ContributionBlock(in, contributions, t.ranks, acc), {}, {}};
        w.first.resize(w.block.capacity());
        for (std::size_t c = worker; c < chunks; c += workers) {
            const int64_t lo = std::min(elements, t.chunk_offset[c] / es);
            const int64_t hi = std::min(elements, t.chunk_offset[c + 1] / es);
            if (lo >= hi) continue;
            std::vector<ReductionProgram> programs;
            for (int32_t root : finished_roots(t, c)) programs.push_back(compile_reduction(t, root));
            if (programs.empty()) continue;
            per_chunk[c] = evaluate_chunk(acc, bound, lo, hi, programs, w, st.result.data() + lo);
        }
    };
    std::vector<std::thread> threads;
    for (unsigned w = 1; w < workers; ++w) threads.emplace_back(work, w);
    work(0);
    for (auto& th : threads) th.join();

    double rel_sum = 0, error_sq = 0, exact_sq = 0;
    int64_t rel_count = 0;
    for (const ChunkStats& cs : per_chunk) {
        st.max_rel_error = std::max(st.max_rel_error, cs.max_rel);
        st.max_abs_sum_error = std::max(st.max_abs_sum_error, cs.max_vs_abs_sum);
        error_sq += cs.error_sq;
        exact_sq += cs.exact_sq;
        st.max_ulp = std::max(st.max_ulp, cs.max_ulp);
        st.max_bound_ratio = std::max(st.max_bound_ratio, cs.max_bound);
        st.ranks_bitwise_identical = st.ranks_bitwise_identical && cs.identical;
        st.elements += cs.elements;
        rel_sum += cs.rel_sum;
        rel_count += cs.rel_count;
    }
    st.mean_rel_error = rel_count ? rel_sum / static_cast<double>(rel_count) : 0.0;
    st.normwise_rel_error = exact_sq > 0 ? std::sqrt(error_sq / exact_sq) : error_sq > 0 ? INFINITY : 0.0;
    return st;
}

}  // namespace collsim
