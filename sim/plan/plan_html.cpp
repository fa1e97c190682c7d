#include "sim/plan/plan_html.hpp"

#include <fmt/format.h>

#include "sim/report/bar_chart.hpp"

namespace collsim {

namespace {
std::string gib_of(double bytes) { return fmt::format("{:.2f} GiB", bytes / (1024.0 * 1024 * 1024)); }

std::string layout_label(const Layout& l) {
    std::string s = fmt::format("TP{} PP{} DP{}", l.tp, l.pp, l.dp);
    if (l.cp > 1) s += fmt::format(" CP{}", l.cp);
    if (l.ep > 1) s += fmt::format(" EP{}", l.ep);
    return s + fmt::format(" mb{}", l.micro_batch);
}
}  // namespace

std::string render_search_html(const std::string& model, int gpus, const std::string& topology, const SearchResult& r,
                               std::size_t top, const std::vector<std::string>& notes, const HtmlProvenance& p) {
    HtmlReport html(fmt::format("collsim plan --search: {} on {} GPUs", model, gpus));
    html.paragraph(fmt::format("On {}: {} layouts valid, {} do not fit memory, {} ranked by tokens/s.", topology,
                               r.valid, r.refused, r.ranked.size()));
    const std::size_t shown = std::min(top, r.ranked.size());
    if (shown > 0) {
        BarChart chart{fmt::format("the best {} layouts", shown), "tokens/s", 0, {}};
        for (std::size_t i = 0; i < shown; ++i)
            chart.bars.push_back(Bar{fmt::format("{}. {}", i + 1, layout_label(r.ranked[i].layout)),
                                     r.ranked[i].tokens_per_s, "#1f77b4",
                                     fmt::format("{:.0f} tokens/s", r.ranked[i].tokens_per_s)});
        html.heading("Ranked layouts").figure(bar_chart_svg(chart));
        HtmlTable t{{"rank", "tp", "pp", "dp", "cp", "ep", "micro-batch", "step (us)", "tokens/s", "MFU", "bubble",
                     "memory", "bottleneck"},
                    {}};
        for (std::size_t i = 0; i < shown; ++i) {
            const PlanResult& q = r.ranked[i];
            const Layout& l = q.layout;
            t.rows.push_back({std::to_string(i + 1), std::to_string(l.tp), std::to_string(l.pp), std::to_string(l.dp),
                              std::to_string(l.cp), std::to_string(l.ep), std::to_string(l.micro_batch),
                              fmt::format("{:.1f}", q.step * 1e6), fmt::format("{:.0f}", q.tokens_per_s),
                              fmt::format("{:.1f}%", 100 * q.mfu), fmt::format("{:.1f}%", 100 * q.bubble / q.step),
                              gib_of(static_cast<double>(q.memory.total())), q.bottleneck});
        }
        html.table(t);
    } else {
        html.paragraph("No layout fits memory.");
    }
    if (!notes.empty()) {
        html.heading("Notes");
        for (const std::string& n : notes) html.paragraph(n);
    }
    return html.render(p);
}

std::string render_inference_html(const InferenceResult& r, const HtmlProvenance& p) {
    const InferenceRequest& q = r.request;
    const bool decode = q.mode == InferenceMode::decode;
    HtmlReport html(fmt::format("collsim plan: {} {} on TP{} x PP{}", r.model, decode ? "decode" : "prefill", q.tp, q.pp));
    html.paragraph(fmt::format("Batch {}, context {}{}.", q.batch, q.context,
                               decode ? fmt::format(", {} new tokens per request", q.new_tokens) : ""));
    html.heading("Time");
    html.table(HtmlTable{{decode ? "per token (us)" : "per prompt token (us)", decode ? "per request (us)" : "per batch (us)",
                          "TP AllReduce share", "TP AllReduce algorithm"},
                         {{fmt::format("{:.3f}", r.per_token * 1e6), fmt::format("{:.1f}", r.per_request * 1e6),
                           fmt::format("{:.1f}%", 100 * r.tp_share), r.algo.empty() ? "no TP" : r.algo}}});
    BarChart layer{"one layer, by part", "us", 0, {}};
    layer.bars.push_back(Bar{"compute", r.layer_compute * 1e6, "#1f77b4", fmt::format("{:.2f} us", r.layer_compute * 1e6)});
    layer.bars.push_back(
        Bar{"TP AllReduce x 2", 2 * r.tp_allreduce * 1e6, "#d62728", fmt::format("{:.2f} us", 2 * r.tp_allreduce * 1e6)});
    html.heading("Per layer").figure(bar_chart_svg(layer));
    html.heading("Memory per GPU");
    html.table(HtmlTable{{"weights", "KV cache", "total", "capacity", "fits"},
                         {{gib_of(r.weights), gib_of(r.kv_cache), gib_of(r.weights + r.kv_cache), gib_of(r.capacity),
                           r.fits() ? "yes" : "NO"}}});
    return html.render(p);
}

}  // namespace collsim
