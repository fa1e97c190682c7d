#include "sim/regress/junit.hpp"

#include <fmt/format.h>

#include "sim/regress/comparison_report.hpp"
#include "sim/regress/tolerance.hpp"

namespace collsim {

namespace {
// Attribute values: the five characters XML reserves, and control characters
// (which XML 1.0 cannot hold at all) as spaces.
std::string escape(const std::string& s) {
    std::string out;
    for (unsigned char ch : s) {
        switch (ch) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default: out += ch < 0x20 ? ' ' : static_cast<char>(ch);
        }
    }
    return out;
}

std::string failure_message(const EntryComparison& e, bool exact) {
    std::string m;
    const auto add = [&m](const std::string& s) { m += (m.empty() ? "" : "; ") + s; };
    if (e.hangs) add("hangs: " + e.hang);
    if (e.added) add("not in the baseline");
    if (e.gone) add("in the baseline, not in the suite");
    for (const MetricChange& c : e.changes)
        if (c.regression || exact)
            add(fmt::format("{} {:.6g} -> {:.6g} ({:+.3g}%, tolerance {})", c.metric, c.before, c.now, c.worse * 100,
                            format_tolerance(e.tolerance)));
    if (exact) {
        if (e.unhung) add("no longer hangs");
        for (const std::string& a : e.metrics_added) add(a + ": new metric");
        for (const std::string& g : e.metrics_gone) add(g + ": metric gone");
        for (const std::string& r : e.ran_differently) add(r);
    }
    return m;
}
}  // namespace

std::string render_junit(const Comparison& c, const std::string& suite, bool exact) {
    const ComparisonTotals t = totals(c, exact);
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += fmt::format("<testsuites name=\"collsim regress\" tests=\"{}\" failures=\"{}\">\n", t.entries, t.failed);
    out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">\n",
                       escape(suite), t.entries, t.failed);
    for (const EntryComparison& e : c.entries) {
        out += fmt::format("    <testcase classname=\"{}\" name=\"{}\"", escape(suite), escape(e.name));
        if (!e.failed(exact)) {
            out += "/>\n";
            continue;
        }
        out += fmt::format(">\n      <failure type=\"{}\" message=\"{}\"/>\n    </testcase>\n",
                           e.hangs ? "hang" : e.regressed() ? "regression" : "changed", escape(failure_message(e, exact)));
    }
    out += "  </testsuite>\n</testsuites>\n";
    return out;
}

}  // namespace collsim
