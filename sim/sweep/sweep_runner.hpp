#pragma once
// Runs a sweep's points on local cores: `jobs` threads take the points in
// order, each point a whole run on its own topology and network, so that the
// rows do not depend on which thread ran what or when (the CSV is written in
// point order afterwards).
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sim/core/run_monitor.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace collsim {

struct SweepRows {
    std::map<std::size_t, std::vector<std::string>> metrics;  // by point index
    bool stopped = false;  // the monitor stopped the run (--wall-limit): some points did not run
};

// Runs `points` (from sweep_points), calling `on_row` (from one thread at a
// time) as each finishes. The first bad input, by point order, is rethrown
// after the points under way have finished; no new point starts after it.
SweepRows run_sweep_points(const SweepSpec& spec, const std::vector<SweepPoint>& points, int jobs,
                           RunMonitor* monitor,
                           const std::function<void(const SweepPoint&, const std::vector<std::string>&)>& on_row);

}  // namespace collsim
