// The `plan --search` benchmark (BENCHMARKS.md): every layout of a job on a
// topology, planned with the collectives of all layouts predicted once and
// remembered (as `collsim plan --search` runs), against the same layouts each
// with a fresh cache (what a search without memoisation would predict), on a
// sample of them. CPU time of this process, since wall time on a shared
// machine counts other processes' turns.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench/process_usage.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/plan/search.hpp"

using namespace collsim;

int main(int argc, char** argv) {
    CLI::App app{"bench_plan_search: time collsim plan --search"};
    std::string model = "models/llama-3-70b.yaml", topology = "topologies/cluster-h100-128n.yaml", tier = "fluid";
    std::string compare;
    int gpus = 1024, sample = 20;
    int64_t global_batch = 1024, seq = 4096;
    app.add_option("--model", model)->capture_default_str();
    app.add_option("--topology", topology)->capture_default_str();
    app.add_option("--gpus", gpus)->capture_default_str();
    app.add_option("--global-batch", global_batch)->capture_default_str();
    app.add_option("--seq", seq)->capture_default_str();
    app.add_option("--tier", tier)->capture_default_str();
    app.add_option("--compare", compare, "also search with this tier and compare the step times");
    app.add_option("--sample", sample, "layouts planned with a fresh cache each")->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    const ModelCard card = load_model_card(model);
    const Topology topo = load_topology(topology);
    const ModelTier t = model_tier_from(tier).value_or(ModelTier::fluid);
    const Calibration cal;
    SearchOptions o;
    o.gpus = gpus;
    o.base.seq = seq;
    o.base.global_batch = global_batch;
    PlanSettings s;
    s.card = default_gpu_card(topo.device(topo.gpus().front()).arch);

    const double t0 = bench::process_cpu_s();
    CollectiveCosts costs(topo, cal, t);
    const SearchResult r = search_layouts(card, o, s, costs);
    const double memo = bench::process_cpu_s() - t0;
    fmt::print("search, memoised: {} layouts valid, {} fit; {} collectives predicted; {:.2f} s CPU ({:.1f} ms per layout)\n",
               r.valid, r.ranked.size(), costs.predicted(), memo, 1e3 * memo / static_cast<double>(r.valid));
    if (!r.ranked.empty()) {
        const Layout& b = r.ranked.front().layout;
        fmt::print("best: TP{} PP{} DP{} CP{} mb{}, {:.0f} tokens/s\n", b.tp, b.pp, b.dp, b.cp, b.micro_batch,
                   r.ranked.front().tokens_per_s);
    }

    const std::vector<Layout> all = candidate_layouts(card, o);
    const double t1 = bench::process_cpu_s();
    std::size_t predicted = 0;
    int planned = 0;
    for (std::size_t i = 0; i < all.size() && planned < sample; i += all.size() / static_cast<std::size_t>(sample) + 1) {
        CollectiveCosts fresh(topo, cal, t);
        (void)plan_layout(card, all[i], s, fresh);
        predicted += fresh.predicted();
        ++planned;
    }
    const double each = (bench::process_cpu_s() - t1) / planned;
    fmt::print("a fresh cache per layout (memoised within the layout only), {} layouts sampled: {:.1f} "
               "collectives and {:.3f} s CPU per layout; the whole search would take about {:.0f} s\n",
               planned, static_cast<double>(predicted) / planned, each, each * static_cast<double>(r.valid));
    if (!compare.empty()) {
        const double t2 = bench::process_cpu_s();
        CollectiveCosts other(topo, cal, model_tier_from(compare).value_or(ModelTier::automatic));
        const SearchResult o2 = search_layouts(card, o, s, other);
        // Same layouts in both (memory does not depend on the tier): match by layout.
        double worst = 0;
        for (const PlanResult& a : r.ranked)
            for (const PlanResult& b : o2.ranked)
                if (a.layout.tp == b.layout.tp && a.layout.pp == b.layout.pp && a.layout.dp == b.layout.dp &&
                    a.layout.cp == b.layout.cp && a.layout.ep == b.layout.ep &&
                    a.layout.micro_batch == b.layout.micro_batch)
                    worst = std::max(worst, std::abs(a.step / b.step - 1));
        std::size_t same_top = 0;
        while (same_top < 10 && same_top < r.ranked.size() && same_top < o2.ranked.size() &&
               r.ranked[same_top].layout.tp == o2.ranked[same_top].layout.tp &&
               r.ranked[same_top].layout.pp == o2.ranked[same_top].layout.pp &&
               r.ranked[same_top].layout.cp == o2.ranked[same_top].layout.cp &&
               r.ranked[same_top].layout.micro_batch == o2.ranked[same_top].layout.micro_batch)
            ++same_top;
        fmt::print("against {}: {:.2f} s CPU; largest step-time difference {:.2f}%; the first {} of the top 10 in the same order\n",
                   compare, bench::process_cpu_s() - t2, 100 * worst, same_top);
    }
    fmt::print("peak RSS {:.1f} MiB\n", bench::peak_rss_mib());
    return 0;
}
