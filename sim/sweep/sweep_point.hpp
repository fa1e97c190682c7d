#pragma once
// One point of a sweep, run as `collsim coll` or `collsim replay` would run
// it with the point's values as options, reduced to the metric columns of
// the sweep's CSV (sweep_metric_names).
#include <string>
#include <vector>

#include "sim/sweep/sweep_spec.hpp"

namespace collsim {

// The point's metric values, as written in the CSV. Throws InputError for a
// bad value, placed at that value in the spec where the error names an
// option the point set.
std::vector<std::string> run_sweep_point(const SweepSpec& spec, const SweepPoint& point);

// The point's value of each parameter, in spec order (the CSV's first columns).
std::vector<std::string> sweep_point_values(const SweepSpec& spec, const SweepPoint& point);

}  // namespace collsim
