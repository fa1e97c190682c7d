#include "sim/report/bar_chart.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/report/svg_text.hpp"

namespace collsim {

// The chart's geometry, in pixels (named apart from the other charts' in a unity build).
namespace bar_geometry {
constexpr double kWidth = 760, kLabel = 240, kNote = 120, kTop = 40, kRow = 20, kBottom = 36;
}  // namespace bar_geometry

std::string bar_chart_svg(const BarChart& c) {
    using namespace bar_geometry;
    double lo = c.reference, hi = c.reference;
    for (const Bar& b : c.bars)
        if (std::isfinite(b.value)) lo = std::min(lo, b.value), hi = std::max(hi, b.value);
    if (hi - lo <= 0) hi = lo + 1;
    const double step = nice_step(hi - lo);
    lo = std::floor(lo / step) * step;
    hi = std::ceil(hi / step) * step;
    const double pw = kWidth - kLabel - kNote, ph = kRow * static_cast<double>(std::max<std::size_t>(c.bars.size(), 1));
    const double height = kTop + ph + kBottom;
    auto px = [&](double v) { return kLabel + (std::clamp(v, lo, hi) - lo) / (hi - lo) * pw; };
    std::string s = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
        "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
        kWidth, height);
    s += fmt::format("<text x=\"8\" y=\"20\" font-size=\"13\">{}</text>\n", escape_xml(c.title));
    for (double v = lo; v <= hi + step * 1e-6; v += step)
        s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#ddd\"/>\n<text x=\"{0:.1f}\" "
                         "y=\"{3}\" text-anchor=\"middle\">{4:g}</text>\n",
                         px(v), kTop, kTop + ph, kTop + ph + 14, v);
    for (std::size_t i = 0; i < c.bars.size(); ++i) {
        const Bar& b = c.bars[i];
        const double y = kTop + kRow * static_cast<double>(i), v = std::isfinite(b.value) ? b.value : (b.value > 0 ? hi : lo);
        const double x0 = std::min(px(c.reference), px(v)), x1 = std::max(px(c.reference), px(v));
        s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", kLabel - 6, y + 14,
                         escape_xml(b.label));
        s += fmt::format("<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"/>\n",
                         x0, y + 3, std::max(x1 - x0, 1.0), kRow - 6, b.colour);
        s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", kLabel + pw + 6, y + 14,
                         escape_xml(b.note.empty() ? fmt::format("{:g}", b.value) : b.note));
    }
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#444\"/>\n", px(c.reference),
                     kTop - 4, kTop + ph + 2);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", kLabel + pw / 2, height - 8,
                     escape_xml(c.axis));
    return s + "</svg>\n";
}

}  // namespace collsim
