#pragma once
// A comparison as people read it (one line per change, a summary last), as
// JSON for scripts and as CSV.
#include <string>

#include "sim/regress/comparison.hpp"

namespace collsim {

struct ComparisonTotals {
    int entries = 0, regressed = 0, hangs = 0, improved = 0, added = 0, gone = 0, failed = 0;
};
ComparisonTotals totals(const Comparison& c, bool exact);

std::string render_comparison_table(const Comparison& c, bool exact);
std::string render_comparison_json(const Comparison& c, bool exact);
// For spreadsheets: a row per metric that moved, and one for each entry
// where none did; columns entry, status, metric, before, now, worse_pct,
// regression.
std::string render_comparison_csv(const Comparison& c);

}  // namespace collsim
