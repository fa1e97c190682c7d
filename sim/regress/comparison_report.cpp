#include "sim/regress/comparison_report.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/regress/tolerance.hpp"
#include "sim/report/bar_chart.hpp"

namespace collsim {

ComparisonTotals totals(const Comparison& c, bool exact) {
    ComparisonTotals t;
    for (const EntryComparison& e : c.entries) {
        ++t.entries;
        t.regressed += e.regressed() && !e.hangs;
        t.hangs += e.hangs;
        t.improved += e.improved();
        t.added += e.added;
        t.gone += e.gone;
        t.failed += e.failed(exact);
    }
    return t;
}

namespace {
std::string percent(double worse) {
    if (std::isinf(worse)) return worse > 0 ? "+inf%" : "-inf%";
    return fmt::format("{:+.3g}%", worse * 100);
}

// What one metric's move is called: over tolerance, within it, or better.
std::string verdict(const MetricChange& m, bool exact) {
    if (m.regression) return "REGRESSION";
    if (m.worse > 0) return exact ? "CHANGED" : "slower";
    return exact ? "CHANGED" : "improved";
}

std::string summary_line(const Comparison& c, bool exact) {
    const ComparisonTotals t = totals(c, exact);
    return fmt::format("{} entries: {} regressed, {} hang, {} improved, {} added, {} gone{}: {}", t.entries,
                       t.regressed, t.hangs, t.improved, t.added, t.gone, exact ? " (exact: any change fails)" : "",
                       t.failed ? fmt::format("FAILED ({} entries)", t.failed) : std::string("ok"));
}

// The entry's change furthest from none, either way; nullptr when none moved.
const MetricChange* largest_change(const EntryComparison& e) {
    const MetricChange* out = nullptr;
    for (const MetricChange& m : e.changes)
        if (!out || std::fabs(m.worse) > std::fabs(out->worse)) out = &m;
    return out;
}
}  // namespace

std::string render_comparison_table(const Comparison& c, bool exact) {
    std::string out;
    for (const EntryComparison& e : c.entries) {
        if (e.added) out += fmt::format("{:<11} {}\n", exact ? "ADDED" : "added", e.name);
        if (e.gone) out += fmt::format("{:<11} {}\n", exact ? "GONE" : "gone", e.name);
        if (e.hangs) out += fmt::format("{:<11} {}: {}\n", "HANG", e.name, e.hang);
        if (e.still_hangs) out += fmt::format("{:<11} {}: hangs, as the baseline says: {}\n", "hangs", e.name, e.hang);
        if (e.unhung) out += fmt::format("{:<11} {}: no longer hangs\n", exact ? "CHANGED" : "improved", e.name);
        for (const MetricChange& m : e.changes)
            out += fmt::format("{:<11} {}  {}  {:.6g} -> {:.6g}  {} (tolerance {})\n", verdict(m, exact), e.name,
                               m.metric, m.before, m.now, percent(m.worse), format_tolerance(e.tolerance));
        for (const std::string& m : e.metrics_added) out += fmt::format("{:<11} {}  {}: new metric\n", exact ? "CHANGED" : "added", e.name, m);
        for (const std::string& m : e.metrics_gone) out += fmt::format("{:<11} {}  {}: metric gone\n", exact ? "CHANGED" : "gone", e.name, m);
        for (const std::string& r : e.ran_differently) out += fmt::format("{:<11} {}  {}\n", exact ? "CHANGED" : "ran", e.name, r);
    }
    for (const std::string& i : c.inputs_changed) out += fmt::format("{:<11} {}\n", "input", i);
    return out + "# " + summary_line(c, exact) + "\n";
}

namespace {
// The word the JSON, CSV and HTML reports give an entry.
const char* entry_status(const EntryComparison& e) {
    return e.added ? "added" : e.gone ? "gone" : e.hangs ? "hang" : e.regressed() ? "regressed"
           : e.improved() ? "improved" : e.moved() ? "changed" : "unchanged";
}

// Entry and metric names hold '/', ',', '=' and spaces: quoted as RFC 4180 does.
std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}
}  // namespace

std::string render_comparison_csv(const Comparison& c) {
    std::string out = "entry,status,metric,before,now,worse_pct,regression\n";
    for (const EntryComparison& e : c.entries) {
        const std::string head = csv_field(e.name) + "," + entry_status(e);
        if (e.changes.empty()) out += head + ",,,,,\n";
        for (const MetricChange& m : e.changes)
            out += fmt::format("{},{},{},{},{},{}\n", head, csv_field(m.metric), m.before, m.now,
                               std::isinf(m.worse) ? std::string() : fmt::format("{:.6g}", m.worse * 100),
                               m.regression ? "true" : "false");
    }
    return out;
}

std::string render_comparison_json(const Comparison& c, bool exact) {
    using nlohmann::ordered_json;
    ordered_json entries = ordered_json::array();
    for (const EntryComparison& e : c.entries) {
        ordered_json o;
        o["name"] = e.name;
        o["failed"] = e.failed(exact);
        o["status"] = entry_status(e);
        o["tolerance"] = e.tolerance;
        if (!e.hang.empty()) o["hang"] = e.hang;
        ordered_json changes = ordered_json::array();
        for (const MetricChange& m : e.changes)
            changes.push_back({{"metric", m.metric}, {"before", m.before}, {"now", m.now},
                               {"worse_pct", std::isinf(m.worse) ? ordered_json() : ordered_json(m.worse * 100)},
                               {"regression", m.regression}});
        o["changes"] = changes;
        o["metrics_added"] = e.metrics_added;
        o["metrics_gone"] = e.metrics_gone;
        o["ran_differently"] = e.ran_differently;
        entries.push_back(std::move(o));
    }
    const ComparisonTotals t = totals(c, exact);
    ordered_json j;
    j["failed"] = t.failed > 0;
    j["exact"] = exact;
    j["totals"] = {{"entries", t.entries}, {"regressed", t.regressed}, {"hangs", t.hangs}, {"improved", t.improved},
                   {"added", t.added}, {"gone", t.gone}};
    j["inputs_changed"] = c.inputs_changed;
    j["entries"] = entries;
    return j.dump(2) + "\n";
}

std::string render_comparison_html(const Comparison& c, bool exact, const std::string& suite, const HtmlProvenance& p) {
    HtmlReport html("collsim regress: " + suite);
    html.paragraph(summary_line(c, exact) + ".");
    BarChart chart{"each entry's largest change (worse to the right)", "change (%)", 0, {}};
    HtmlTable entries{{"entry", "status", "largest change", "tolerance", "failed"}, {}};
    HtmlTable changes{{"entry", "metric", "before", "now", "change", "verdict", "tolerance"}, {}};
    for (const EntryComparison& e : c.entries) {
        const MetricChange* m = largest_change(e);
        const char* colour = e.failed(exact) ? kWorseColour : m && m->worse < 0 ? kBetterColour : kSameColour;
        const std::string status = entry_status(e);
        chart.bars.push_back(Bar{e.name, m ? m->worse * 100 : 0, colour, m ? percent(m->worse) + " " + status : status});
        entries.rows.push_back({e.name, status, m ? percent(m->worse) + " " + m->metric : "-",
                                format_tolerance(e.tolerance), e.failed(exact) ? "FAILED" : "ok"});
        for (const MetricChange& x : e.changes)
            changes.rows.push_back({e.name, x.metric, fmt::format("{:.6g}", x.before), fmt::format("{:.6g}", x.now),
                                    percent(x.worse), verdict(x, exact), format_tolerance(e.tolerance)});
    }
    html.heading("Changes by entry").figure(bar_chart_svg(chart));
    html.heading("Entries").table(entries);
    if (!changes.rows.empty()) html.heading("Metrics that moved").table(changes);
    if (!c.inputs_changed.empty()) {
        HtmlTable inputs{{"input changed since the baseline"}, {}};
        for (const std::string& i : c.inputs_changed) inputs.rows.push_back({i});
        html.heading("Inputs").table(inputs);
    }
    return html.render(p);
}

}  // namespace collsim
