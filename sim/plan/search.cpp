#include "sim/plan/search.hpp"

#include <algorithm>
#include <tuple>

#include "sim/core/error.hpp"

namespace collsim {

namespace {

std::vector<int> divisors(int n) {
    std::vector<int> d;
    for (int i = 1; i <= n; ++i)
        if (n % i == 0) d.push_back(i);
    return d;
}

auto layout_key(const Layout& l) { return std::make_tuple(l.tp, l.pp, l.dp, l.cp, l.ep, l.micro_batch); }

}  // namespace

std::vector<Layout> candidate_layouts(const ModelCard& c, const SearchOptions& o) {
    std::vector<Layout> out;
    for (int tp : divisors(o.gpus))
        for (int cp : divisors(o.gpus / tp))
            for (int pp : divisors(o.gpus / (tp * cp))) {
                const int dp = o.gpus / (tp * cp * pp);
                for (int ep : c.moe ? divisors(dp) : std::vector<int>{1})
                    for (int64_t mb : o.micro_batches) {
                        Layout l = o.base;
                        l.tp = tp, l.cp = cp, l.pp = pp, l.dp = dp, l.ep = ep, l.micro_batch = mb;
                        if (pp == 1) l.vpp = 1;
                        l.sp = o.sp && tp > 1;
                        try {
                            check_layout(c, l, o.gpus, o.gpus_per_node);
                        } catch (const InputError&) {
                            continue;  // does not divide the model, the GPUs or the batch
                        }
                        out.push_back(l);
                    }
            }
    return out;
}

SearchResult search_layouts(const ModelCard& c, const SearchOptions& o, const PlanSettings& s,
                            CollectiveCosts& costs) {
    SearchResult r;
    const std::vector<Layout> all = candidate_layouts(c, o);
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (static_cast<int>(i % static_cast<std::size_t>(o.shards)) != o.shard) continue;
        ++r.valid;
        PlanResult p = plan_layout(c, all[i], s, costs);
        if (!p.memory.fits()) {
            ++r.refused;
            continue;
        }
        r.ranked.push_back(std::move(p));
    }
    std::stable_sort(r.ranked.begin(), r.ranked.end(), [](const PlanResult& a, const PlanResult& b) {
        if (a.tokens_per_s != b.tokens_per_s) return a.tokens_per_s > b.tokens_per_s;
        return layout_key(a.layout) < layout_key(b.layout);
    });
    return r;
}

}  // namespace collsim
