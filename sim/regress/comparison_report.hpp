#pragma once
// A comparison as people read it (one line per change, worst first within
// each entry, a summary last) and as JSON for scripts.
#include <string>

#include "sim/regress/comparison.hpp"

namespace collsim {

struct ComparisonTotals {
    int entries = 0, regressed = 0, hangs = 0, improved = 0, added = 0, gone = 0, failed = 0;
};
ComparisonTotals totals(const Comparison& c, bool exact);

std::string render_comparison_table(const Comparison& c, bool exact);
std::string render_comparison_json(const Comparison& c, bool exact);

}  // namespace collsim
