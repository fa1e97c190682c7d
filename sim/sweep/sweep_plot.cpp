#include "sim/sweep/sweep_plot.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "sim/core/units.hpp"
#include "sim/report/svg_text.hpp"

namespace collsim {

namespace {

constexpr double kWidth = 760, kHeight = 460;
constexpr double kLeft = 80, kRight = 190, kTop = 56, kBottom = 56;
constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

enum class Axis { sizes, numbers, names };

std::optional<double> as_number(const std::string& s) {
    try {
        std::size_t used = 0;
        const double v = std::stod(s, &used);
        if (used == s.size() && std::isfinite(v)) return v;
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

std::optional<double> as_size(const std::string& s) {
    try {
        return static_cast<double>(parse_size(s).count());
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// Where each of the x parameter's values sits on the axis, and how the axis reads.
struct XScale {
    Axis axis = Axis::names;
    std::vector<double> pos;  // per value index
    double lo = 0, hi = 1;
};

XScale x_scale(const SweepParameter& p) {
    XScale s;
    std::vector<double> sizes, numbers;
    for (const auto& v : p.values) {
        if (const auto b = as_size(v); b && *b > 0) sizes.push_back(std::log2(*b));
        if (const auto n = as_number(v)) numbers.push_back(*n);
    }
    // Sizes read as bytes even when written as plain numbers ("8", "1024").
    if (sizes.size() == p.values.size() && (p.name == "size" || numbers.size() < p.values.size()))
        s.axis = Axis::sizes, s.pos = sizes;
    else if (numbers.size() == p.values.size()) s.axis = Axis::numbers, s.pos = numbers;
    else
        for (std::size_t i = 0; i < p.values.size(); ++i) s.pos.push_back(static_cast<double>(i));
    s.lo = *std::min_element(s.pos.begin(), s.pos.end());
    s.hi = *std::max_element(s.pos.begin(), s.pos.end());
    if (s.axis == Axis::names) s.lo -= 0.5, s.hi += 0.5;
    if (s.hi <= s.lo) s.lo -= 1, s.hi += 1;
    return s;
}

std::size_t index_of(const SweepSpec& spec, const std::string& name) {
    for (std::size_t j = 0; j < spec.parameters.size(); ++j)
        if (spec.parameters[j].name == name) return j;
    return spec.parameters.size();
}

struct Series {
    std::string label;
    std::vector<std::pair<double, double>> pts;  // x position, metric
};

std::string chart_svg(const std::string& title, const std::string& subtitle, const SweepPlot& plot, const XScale& xs,
                      const SweepParameter& xp, const std::vector<Series>& series) {
    double ymax = 0;
    for (const auto& s : series)
        for (const auto& [x, y] : s.pts) ymax = std::max(ymax, y);
    const double step = nice_step(ymax > 0 ? ymax : 1), ytop = std::ceil((ymax > 0 ? ymax : 1) / step) * step;
    const double pw = kWidth - kLeft - kRight, ph = kHeight - kTop - kBottom;
    auto px = [&](double x) { return kLeft + (x - xs.lo) / (xs.hi - xs.lo) * pw; };
    auto py = [&](double y) { return kTop + ph - y / ytop * ph; };
    std::string s = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
        "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
        kWidth, kHeight);
    s += fmt::format("<text x=\"{}\" y=\"20\" font-size=\"13\">{}</text>\n", kLeft, escape_xml(title));
    s += fmt::format("<text x=\"{}\" y=\"38\">{}</text>\n", kLeft, escape_xml(subtitle));
    for (double y = 0; y <= ytop * 1.0001; y += step)
        s += fmt::format(
            "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>\n<text x=\"{3:.1f}\" "
            "y=\"{4:.1f}\" text-anchor=\"end\">{5:g}</text>\n",
            kLeft, py(y), kLeft + pw, kLeft - 6, py(y) + 4, y);
    for (std::size_t i = 0; i < xp.values.size(); ++i) {
        const double x = px(xs.pos[i]);
        s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#eee\"/>\n", x, kTop,
                         kTop + ph);
        const std::string label = xs.axis == Axis::sizes ? size_label(std::exp2(xs.pos[i])) : xp.values[i];
        s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", x, kTop + ph + 16,
                         escape_xml(label));
    }
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#888\"/>\n", kLeft, kTop,
                     pw, ph);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}{}</text>\n", kLeft + pw / 2,
                     kHeight - 12, escape_xml(plot.x), xs.axis == Axis::sizes ? " (log scale)" : "");
    s += fmt::format("<text transform=\"translate(18 {:.1f}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
                     kTop + ph / 2, escape_xml(plot.metric));
    for (std::size_t k = 0; k < series.size(); ++k) {
        const char* colour = kColours[k % std::size(kColours)];
        std::string points;
        for (const auto& [x, y] : series[k].pts) points += fmt::format("{}{:.1f},{:.1f}", points.empty() ? "" : " ", px(x), py(y));
        s += fmt::format("<polyline class=\"series\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n",
                         colour, points);
        for (const auto& [x, y] : series[k].pts)
            s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>\n", px(x), py(y), colour);
        const double ly = kTop + 10 + 18.0 * static_cast<double>(k), lx = kLeft + pw + 14;
        s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"{3}\" "
                         "stroke-width=\"2\"/>\n<text x=\"{4:.1f}\" y=\"{5:.1f}\">{6}</text>\n",
                         lx, ly, lx + 16, colour, lx + 22, ly + 4, escape_xml(series[k].label));
    }
    return s + "</svg>\n";
}

}  // namespace

std::vector<SweepChart> render_sweep_plots(const SweepSpec& spec, const SweepPlot& plot,
                                           const std::vector<SweepPoint>& points,
                                           const std::map<std::size_t, std::vector<std::string>>& metrics) {
    const auto& names = sweep_metric_names(spec.command);
    const auto m = static_cast<std::size_t>(std::find(names.begin(), names.end(), plot.metric) - names.begin());
    const std::size_t jx = index_of(spec, plot.x), jg = plot.group.empty() ? spec.parameters.size() : index_of(spec, plot.group);
    const XScale xs = x_scale(spec.parameters[jx]);
    // Charts by the values of the other varying parameters, in point order.
    std::vector<std::size_t> others;
    for (std::size_t j = 0; j < spec.parameters.size(); ++j)
        if (j != jx && j != jg && spec.parameters[j].values.size() > 1) others.push_back(j);
    std::map<std::vector<std::size_t>, std::map<std::size_t, Series>> charts;
    std::vector<std::vector<std::size_t>> order;
    for (const SweepPoint& pt : points) {
        std::vector<std::size_t> key;
        for (std::size_t j : others) key.push_back(pt.choice[j]);
        if (!charts.count(key)) order.push_back(key);
        auto& chart = charts[key];
        const std::size_t g = jg < spec.parameters.size() ? pt.choice[jg] : 0;
        Series& s = chart[g];
        if (s.label.empty()) s.label = jg < spec.parameters.size() ? spec.parameters[jg].values[g] : plot.metric;
        const auto it = metrics.find(pt.index);
        if (it == metrics.end() || m >= it->second.size()) continue;
        if (const auto y = as_number(it->second[m])) s.pts.emplace_back(xs.pos[pt.choice[jx]], *y);
    }
    std::vector<SweepChart> out;
    std::string base = plot.metric + "-vs-" + plot.x + (plot.group.empty() ? "" : "-by-" + plot.group);
    std::replace_if(base.begin(), base.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_'; }, '_');
    for (std::size_t c = 0; c < order.size(); ++c) {
        std::string fixed;
        for (std::size_t k = 0; k < others.size(); ++k)
            fixed += fmt::format("{}{}={}", k ? ", " : "", spec.parameters[others[k]].name,
                                 spec.parameters[others[k]].values[order[c][k]]);
        std::vector<Series> series;
        for (auto& [g, s] : charts[order[c]]) {
            std::sort(s.pts.begin(), s.pts.end());
            series.push_back(s);
        }
        const std::string title = fmt::format("{} against {}{}", plot.metric, plot.x,
                                              plot.group.empty() ? "" : ", by " + plot.group);
        out.push_back(SweepChart{order.size() > 1 ? fmt::format("{}-{}.svg", base, c + 1) : base + ".svg",
                                 chart_svg(title, fixed.empty() ? spec.file : fixed, plot, xs, spec.parameters[jx], series)});
    }
    return out;
}

}  // namespace collsim
