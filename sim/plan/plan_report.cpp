#include "sim/plan/plan_report.hpp"

#include <fmt/format.h>

#include "sim/report/bar_chart.hpp"

namespace collsim {

namespace {

nlohmann::ordered_json nullable(bool fits, double v) { return fits ? nlohmann::ordered_json(v) : nullptr; }

std::string layout_line(const Layout& l) {
    std::string s = fmt::format("TP{} x PP{} x DP{}", l.tp, l.pp, l.dp);
    if (l.cp > 1) s += fmt::format(" x CP{}", l.cp);
    if (l.ep > 1) s += fmt::format(" (EP{})", l.ep);
    if (l.vpp > 1) s += fmt::format(", {} chunks per stage", l.vpp);
    return s + fmt::format("; micro-batch {}, global batch {}, {} micro-batch{}; sequence {}; ZeRO-{}; recompute {}; "
                           "sequence parallel {}; {}; overlap {}",
                           l.micro_batch, l.global_batch, l.microbatches(), l.microbatches() == 1 ? "" : "es", l.seq,
                           l.zero, to_string(l.recompute), l.sp ? "on" : "off", to_string(l.dtype),
                           l.overlap ? "on" : "off");
}

}  // namespace

std::string gib(double bytes) { return fmt::format("{:.2f} GiB", bytes / (1024.0 * 1024 * 1024)); }

std::string does_not_fit(const PlanResult& r) {
    const MemoryPerGpu& m = r.memory;
    return fmt::format("does not fit: {} per GPU on stage {} against a capacity of {} (weights {}, gradients {}, "
                       "optimizer {}, activations {}, buffers {})",
                       gib(m.total()), m.stage, gib(m.capacity), gib(m.weights), gib(m.gradients), gib(m.optimizer),
                       gib(m.activations), gib(m.buffers));
}

nlohmann::ordered_json plan_json(const PlanResult& r) {
    const bool fits = r.memory.fits();
    nlohmann::ordered_json j;
    j["model"] = r.model;
    j["gpus"] = r.gpus;
    j["layout"] = {{"tp", r.layout.tp}, {"pp", r.layout.pp}, {"dp", r.layout.dp}, {"ep", r.layout.ep},
                   {"cp", r.layout.cp}};
    j["step_time_us"] = nullable(fits, r.step * 1e6);
    j["tokens_per_s"] = nullable(fits, r.tokens_per_s);
    j["mfu"] = nullable(fits, r.mfu);
    const MemoryPerGpu& m = r.memory;
    j["memory_per_gpu"] = {{"weights", m.weights},         {"gradients", m.gradients}, {"optimizer", m.optimizer},
                           {"activations", m.activations}, {"buffers", m.buffers},     {"total", m.total()},
                           {"capacity", m.capacity},       {"fits", fits}};
    j["communication"] = nlohmann::ordered_json::array();
    for (const CommLine& c : r.communication)
        j["communication"].push_back({{"group", c.group},
                                      {"op", c.op},
                                      {"exposed_us", c.exposed * 1e6},
                                      {"overlapped_us", c.overlapped * 1e6},
                                      {"share", c.exposed / r.step}});
    j["bubble_share"] = nullable(fits, fits ? r.bubble / r.step : 0);
    j["bottleneck"] = fits ? r.bottleneck : does_not_fit(r);
    return j;
}

std::string render_plan_table(const PlanResult& r, const std::vector<std::string>& notes) {
    std::string out = fmt::format("# plan: {} on {} GPUs\n# layout: {}\n", r.model, r.gpus, layout_line(r.layout));
    const MemoryPerGpu& m = r.memory;
    out += fmt::format("#\n# memory per GPU (stage {}): weights {}, gradients {}, optimizer {}, activations {}, "
                       "buffers {}\n#   total {} of {}: {}\n",
                       m.stage, gib(m.weights), gib(m.gradients), gib(m.optimizer), gib(m.activations),
                       gib(m.buffers), gib(m.total()), gib(m.capacity), m.fits() ? "fits" : "DOES NOT FIT");
    if (!m.fits()) return out + "# " + does_not_fit(r) + "; no step time\n";
    out += fmt::format("#\n# step {:.1f} us ({:.3f} s); {:.0f} tokens/s; MFU {:.1f}%, {:.1f} TFLOP/s per GPU "
                       "(with recomputation: {:.1f}%, {:.1f} TFLOP/s)\n",
                       r.step * 1e6, r.step, r.tokens_per_s, 100 * r.mfu, r.model_flops_per_gpu * 1e-12, 100 * r.hfu,
                       r.hardware_flops_per_gpu * 1e-12);
    out += fmt::format("# compute {:.1f} us ({:.1f}%); pipeline bubble {:.1f} us ({:.1f}%); optimizer {:.1f} us "
                       "({:.1f}%)\n",
                       r.compute * 1e6, 100 * r.compute / r.step, r.bubble * 1e6, 100 * r.bubble / r.step,
                       r.optimizer * 1e6, 100 * r.optimizer / r.step);
    out += fmt::format("#\n{:<6} {:<14} {:>8} {:>14} {:>14} {:>14} {:>8}  {}\n", "group", "op", "calls", "bytes",
                       "exposed_us", "overlapped_us", "share", "algorithm (largest call)");
    for (const CommLine& c : r.communication)
        out += fmt::format("{:<6} {:<14} {:>8} {:>14} {:>14.1f} {:>14.1f} {:>7.1f}%  {}\n", c.group, c.op, c.calls,
                           c.bytes.count(), c.exposed * 1e6, c.overlapped * 1e6, 100 * c.exposed / r.step, c.algo);
    out += fmt::format("#\n# bottleneck: {}\n", r.bottleneck);
    for (const std::string& n : notes) out += "# note: " + n + "\n";
    return out;
}

std::string render_plan_html(const PlanResult& r, const std::vector<std::string>& notes, const HtmlProvenance& p) {
    HtmlReport html(fmt::format("collsim plan: {} on {} GPUs", r.model, r.gpus));
    html.paragraph("Layout: " + layout_line(r.layout) + ".");
    const MemoryPerGpu& m = r.memory;
    if (m.fits()) {
        BarChart chart{fmt::format("the step, {:.1f} us, by part", r.step * 1e6), "us per step", 0, {}};
        const auto part = [&](const std::string& name, double seconds) {
            chart.bars.push_back(Bar{name, seconds * 1e6, "#1f77b4", fmt::format("{:.1f} us ({:.1f}%)", seconds * 1e6, 100 * seconds / r.step)});
        };
        part("compute", r.compute);
        part("pipeline bubble", r.bubble);
        part("optimizer", r.optimizer);
        for (const CommLine& c : r.communication) part(c.group + " " + c.op + " exposed", c.exposed);
        html.heading("Step").figure(bar_chart_svg(chart));
        html.table(HtmlTable{{"step (us)", "tokens/s", "MFU", "TFLOP/s per GPU", "with recomputation", "bottleneck"},
                             {{fmt::format("{:.1f}", r.step * 1e6), fmt::format("{:.0f}", r.tokens_per_s),
                               fmt::format("{:.1f}%", 100 * r.mfu), fmt::format("{:.1f}", r.model_flops_per_gpu * 1e-12),
                               fmt::format("{:.1f}% {:.1f} TFLOP/s", 100 * r.hfu, r.hardware_flops_per_gpu * 1e-12),
                               r.bottleneck}}});
    } else {
        html.paragraph(does_not_fit(r) + "; no step time.");
    }
    html.heading(fmt::format("Memory per GPU (stage {})", m.stage));
    html.table(HtmlTable{{"weights", "gradients", "optimizer", "activations", "buffers", "total", "capacity", "fits"},
                         {{gib(m.weights), gib(m.gradients), gib(m.optimizer), gib(m.activations), gib(m.buffers),
                           gib(m.total()), gib(m.capacity), m.fits() ? "yes" : "NO"}}});
    if (m.fits()) {
        HtmlTable comm{{"group", "op", "calls", "bytes", "exposed (us)", "overlapped (us)", "share", "algorithm (largest call)"}, {}};
        for (const CommLine& c : r.communication)
            comm.rows.push_back({c.group, c.op, std::to_string(c.calls), std::to_string(c.bytes.count()),
                                 fmt::format("{:.1f}", c.exposed * 1e6), fmt::format("{:.1f}", c.overlapped * 1e6),
                                 fmt::format("{:.1f}%", 100 * c.exposed / r.step), c.algo});
        html.heading("Communication per step").table(comm);
    }
    if (!notes.empty()) {
        html.heading("Notes");
        for (const std::string& n : notes) html.paragraph(n);
    }
    return html.render(p);
}

}  // namespace collsim
