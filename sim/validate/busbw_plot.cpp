#include "sim/validate/busbw_plot.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/report/svg_text.hpp"

namespace collsim {

namespace {

constexpr double kWidth = 720, kHeight = 440;
constexpr double kLeft = 70, kRight = 20, kTop = 50, kBottom = 50;

}  // namespace

std::string render_busbw_plot(const Dataset& d, const DatasetPrediction& p, const std::string& calibration) {
    const double factor = busbw_factor(d.op, d.ranks);
    struct Point {
        double log2_size, measured, predicted;  // busbw in GB/s
    };
    std::vector<Point> pts;
    for (const auto& r : p.rows) {
        const double size = static_cast<double>(r.error.size.count());
        // bytes per microsecond / 1000 = GB/s
        pts.push_back({std::log2(size), size * factor / r.error.measured_us / 1e3,
                       size * factor / r.error.predicted_us / 1e3});
    }
    double x0 = 0, x1 = 1, y0 = -2, y1 = 3;
    if (!pts.empty()) {
        x0 = std::floor(pts.front().log2_size), x1 = std::ceil(pts.back().log2_size);
        if (x1 <= x0) x1 = x0 + 1;
        double lo = 1e300, hi = 0;
        for (const auto& q : pts) lo = std::min({lo, q.measured, q.predicted}), hi = std::max({hi, q.measured, q.predicted});
        y0 = std::floor(std::log10(lo)), y1 = std::ceil(std::log10(hi));
        if (y1 <= y0) y1 = y0 + 1;
    }
    const double pw = kWidth - kLeft - kRight, ph = kHeight - kTop - kBottom;
    auto px = [&](double l2) { return kLeft + (l2 - x0) / (x1 - x0) * pw; };
    auto py = [&](double gbps) { return kTop + ph - (std::log10(gbps) - y0) / (y1 - y0) * ph; };

    std::string s = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
        "font-family=\"sans-serif\" font-size=\"11\">\n",
        kWidth, kHeight, kWidth, kHeight);
    s += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"white\"/>\n", kWidth, kHeight);
    s += fmt::format("<text x=\"{}\" y=\"20\" font-size=\"13\">{}</text>\n", kLeft, escape_xml(d.name));
    s += fmt::format("<text x=\"{}\" y=\"36\">{} on {} ranks, {} / {}, calibration: {}</text>\n", kLeft,
                     to_string(d.op), d.ranks, escape_xml(p.algos()), escape_xml(p.protos()), escape_xml(calibration));
    // Grid: every power of two on x (labelled every other one when crowded), every decade on y.
    const int xstep = (x1 - x0) > 16 ? 2 : 1;
    for (int e = static_cast<int>(x0); e <= static_cast<int>(x1); ++e) {
        s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/>\n", px(e),
                         kTop, kTop + ph);
        if ((e - static_cast<int>(x0)) % xstep == 0)
            s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", px(e), kTop + ph + 15,
                             size_label(std::ldexp(1.0, e)));
    }
    for (int e = static_cast<int>(y0); e <= static_cast<int>(y1); ++e) {
        const double y = py(std::pow(10.0, e));
        s += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>\n", kLeft, y,
                         kLeft + pw, y);
        s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{:g}</text>\n", kLeft - 6, y + 4,
                         std::pow(10.0, e));
    }
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#888\"/>\n", kLeft, kTop,
                     pw, ph);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">message size (bytes)</text>\n",
                     kLeft + pw / 2, kHeight - 10);
    s += fmt::format("<text transform=\"translate(16 {:.1f}) rotate(-90)\" text-anchor=\"middle\">busbw (GB/s)</text>\n",
                     kTop + ph / 2);
    if (!pts.empty()) {
        s += "<polyline fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\" points=\"";
        for (std::size_t i = 0; i < pts.size(); ++i)
            s += fmt::format("{}{:.1f},{:.1f}", i ? " " : "", px(pts[i].log2_size), py(pts[i].predicted));
        s += "\"/>\n";
        for (const auto& q : pts)
            s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"#1f77b4\"/>\n", px(q.log2_size),
                             py(q.measured));
    }
    // Legend
    s += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"#1f77b4\"/>\n", kLeft + 12, kTop + 14);
    s += fmt::format("<text x=\"{}\" y=\"{}\">measured</text>\n", kLeft + 22, kTop + 18);
    s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#d62728\" stroke-width=\"2\"/>\n", kLeft + 4,
                     kTop + 32, kLeft + 20, kTop + 32);
    s += fmt::format("<text x=\"{}\" y=\"{}\">predicted</text>\n", kLeft + 22, kTop + 36);
    s += "</svg>\n";
    return s;
}

}  // namespace collsim
