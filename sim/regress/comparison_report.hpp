#pragma once
// A comparison as people read it (one line per change, a summary last), as
// JSON for scripts, as CSV and as an HTML page.
#include <string>

#include "sim/regress/comparison.hpp"
#include "sim/report/html_report.hpp"

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
// regress --html: each entry's worst change as a bar from 0 (right: worse),
// the entries, every change, the inputs that changed, then `p`.
std::string render_comparison_html(const Comparison& c, bool exact, const std::string& suite, const HtmlProvenance& p);

}  // namespace collsim
