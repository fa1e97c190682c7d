#pragma once
#include <string>

#include "sim/numerics/numerics_run.hpp"

namespace collsim {

std::string render_numerics_table(const NumericsReport& r);
// Stable names: {"op", "algo", "ranks", "elements", "dtype", "accum",
// "normwise_rel_error", "max_abs_sum_error" (the headline errors), "max_rel_error",
// "mean_rel_error", "max_ulp", "ranks_bitwise_identical",
// "runs", "runs_differing", ...} for the first configuration; with several,
// "compare" holds one such object per configuration (named by "config"),
// "contributions" the values every element sums, and "pairs" each pair's
// differences ("bitwise_identical", "elements_differing", "max_ulp",
// "max_rel_difference").
std::string render_numerics_json(const NumericsReport& r);

}  // namespace collsim
