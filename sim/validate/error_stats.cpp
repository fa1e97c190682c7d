#include "sim/validate/error_stats.hpp"

#include <algorithm>
#include <cmath>

namespace collsim {

double RowError::ape_pct() const { return std::abs(predicted_us - measured_us) / measured_us * 100.0; }

std::optional<double> quantile(std::vector<double> values, double q) {
    if (values.empty()) return std::nullopt;
    std::sort(values.begin(), values.end());
    const double pos = q * static_cast<double>(values.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, values.size() - 1);
    return values[lo] + (values[hi] - values[lo]) * (pos - static_cast<double>(lo));
}

std::optional<double> geomean(const std::vector<double>& values) {
    if (values.empty()) return std::nullopt;
    double sum = 0;
    for (double v : values) sum += std::log(std::max(v, 0.01));
    return std::exp(sum / static_cast<double>(values.size()));
}

ErrorSummary summarize(const std::vector<RowError>& rows) {
    std::vector<double> all, lat, bw;
    for (const auto& r : rows) {
        const double e = r.ape_pct();
        all.push_back(e);
        if (r.size < kLatencyBoundBelow) lat.push_back(e);
        if (r.size >= kBandwidthBoundFrom) bw.push_back(e);
    }
    ErrorSummary s;
    s.rows = static_cast<int>(all.size());
    s.latency_rows = static_cast<int>(lat.size());
    s.bandwidth_rows = static_cast<int>(bw.size());
    s.median_latency_pct = quantile(lat, 0.5);
    s.median_bandwidth_pct = quantile(bw, 0.5);
    s.p90_latency_pct = quantile(lat, 0.9);
    s.p90_bandwidth_pct = quantile(bw, 0.9);
    s.median_pct = quantile(all, 0.5);
    s.geomean_pct = geomean(all);
    return s;
}

}  // namespace collsim
