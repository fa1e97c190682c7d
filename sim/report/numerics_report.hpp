#pragma once
#include <string>

#include "sim/numerics/numerics_run.hpp"

namespace collsim {

std::string render_numerics_table(const NumericsReport& r);
// Stable names: {"op", "algo", "ranks", "elements", "dtype", "accum",
// "max_rel_error", "mean_rel_error", "max_ulp", "ranks_bitwise_identical",
// "runs", "runs_differing", ...}; with several algorithms, "compare" holds one
// such object per algorithm and "pairs" their bitwise differences.
std::string render_numerics_json(const NumericsReport& r);

}  // namespace collsim
