#pragma once
// How far predictions are from measurements: absolute percentage error per
// row, summarised as median and 90th percentile over the latency-bound rows
// (< 64 KiB) and the bandwidth-bound rows (>= 64 MiB), and a geometric mean
// over all rows.
#include <optional>
#include <vector>

#include "sim/core/units.hpp"

namespace collsim {

inline constexpr Bytes kLatencyBoundBelow{64 * 1024};
inline constexpr Bytes kBandwidthBoundFrom{64 * 1024 * 1024};

struct RowError {
    Bytes size;
    double measured_us = 0, predicted_us = 0;
    double ape_pct() const;  // |predicted - measured| / measured x 100
};

struct ErrorSummary {
    int rows = 0, latency_rows = 0, bandwidth_rows = 0;
    // nullopt where no row falls in the range.
    std::optional<double> median_latency_pct, median_bandwidth_pct, p90_latency_pct, p90_bandwidth_pct,
        median_pct, geomean_pct;
};

ErrorSummary summarize(const std::vector<RowError>& rows);

// The q-quantile (0..1) by linear interpolation between order statistics,
// as numpy's default; nullopt for no values.
std::optional<double> quantile(std::vector<double> values, double q);
// exp(mean(log(x))), with each x floored at 0.01 so that an exact prediction
// (0% error) does not zero the whole mean; nullopt for no values.
std::optional<double> geomean(const std::vector<double>& values);

}  // namespace collsim
