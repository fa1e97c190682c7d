#pragma once
// A sweep plot as SVG: one metric against one parameter, a line per value of
// the grouping parameter. Where other parameters vary too, each combination
// of their values gets a plot of its own, titled with those values, so that
// no line mixes points that differ in something the plot does not show.
#include <map>
#include <string>
#include <vector>

#include "sim/sweep/sweep_spec.hpp"

namespace collsim {

struct SweepChart {
    std::string name;  // file name: METRIC-vs-X[-by-GROUP][-N].svg
    std::string svg;
};

// `metrics`: each point's metric values, by point index (points absent or
// without a number for the metric are left out).
std::vector<SweepChart> render_sweep_plots(const SweepSpec& spec, const SweepPlot& plot,
                                           const std::vector<SweepPoint>& points,
                                           const std::map<std::size_t, std::vector<std::string>>& metrics);

}  // namespace collsim
