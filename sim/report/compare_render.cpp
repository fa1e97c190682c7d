// The forms of a Comparison: a table for people, JSON for scripts, CSV with
// one line per row (its busiest link only), and an HTML page.
#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/report/bar_chart.hpp"
#include "sim/report/compare.hpp"
#include "sim/report/svg_text.hpp"

namespace collsim {

namespace {


std::string cell(std::optional<double> v, bool share) {
    if (!v) return "hang";
    return share ? fmt::format("{:.1f}%", *v * 100) : fmt::format("{:.2f}", *v);
}

std::string time_cell(std::optional<double> us) { return us ? fmt::format("{:.3f}", *us) : "hang"; }

std::string links_text(const std::vector<CompareLink>& links) {
    if (links.empty()) return "-";
    std::string out;
    for (const CompareLink& l : links)
        out += fmt::format("{}{} {:.2f} GB/s {:.0f}%", out.empty() ? "" : "; ", l.name, l.average_GBps,
                           l.utilisation * 100);
    return out;
}

// Every figure any row has, in the order they first appear.
std::vector<std::string> value_names(const Comparison& c) {
    std::vector<std::string> names;
    for (const CompareRow& r : c.rows)
        for (const CompareValue& v : r.values)
            if (std::find(names.begin(), names.end(), v.name) == names.end()) names.push_back(v.name);
    return names;
}

nlohmann::ordered_json side_json(const CompareRow& r, bool a) {
    nlohmann::ordered_json j;
    const std::optional<double> us = a ? r.a_us : r.b_us;
    j["time_us"] = us ? nlohmann::ordered_json(*us) : nlohmann::ordered_json();
    const std::string& algo = a ? r.a_algo : r.b_algo;
    if (!algo.empty()) j["algo"] = algo;
    for (const CompareValue& v : r.values) {
        const std::optional<double> x = a ? v.a : v.b;
        j[v.name] = x ? nlohmann::ordered_json(*x) : nlohmann::ordered_json();
    }
    j["links"] = nlohmann::ordered_json::array();
    for (const CompareLink& l : a ? r.a_links : r.b_links)
        j["links"].push_back({{"link", l.name}, {"average_GBps", l.average_GBps}, {"utilisation", l.utilisation}});
    return j;
}

}  // namespace

std::string render_compare_table(const Comparison& c) {
    std::string out = fmt::format("# collsim compare: {}\n# A: {}\n# B: {}\n# B/A: B's time over A's; same within {:.1f}%\n",
                                  c.what, c.a_label, c.b_label, c.threshold * 100);
    std::size_t key_width = 12, algo_width = 6;  // "A algo"
    for (const CompareRow& r : c.rows) {
        key_width = std::max(key_width, r.key.size());
        algo_width = std::max({algo_width, r.a_algo.size(), r.b_algo.size()});
    }
    // A header wherever the figures change: a replay's step, then its collectives.
    const CompareRow* previous = nullptr;
    for (const CompareRow& r : c.rows) {
        const bool algo = !r.a_algo.empty() || !r.b_algo.empty();
        const auto names = [](const CompareRow& x) {
            std::string n;
            for (const CompareValue& v : x.values) n += v.name + ",";
            return n;
        };
        if (!previous || names(*previous) != names(r) || previous->key == "step") {
            const char* first = c.kind == "coll" ? "size" : r.key == "step" ? "" : "collective";
            std::string head = fmt::format("{:>{}} {:>14} {:>14} {:>7}  {:<9}", first, key_width, "A time(us)",
                                           "B time(us)", "B/A", "verdict");
            for (const CompareValue& v : r.values) head += fmt::format(" {:>11} {:>11}", "A " + v.name, "B " + v.name);
            if (algo) head += fmt::format("  {:<{}} {}", "A algo", algo_width, "B algo");
            out += "#" + head.substr(1) + "\n";
        }
        previous = &r;
        std::string line = fmt::format("{:>{}} {:>14} {:>14} {:>7}  {:<9}", r.key, key_width, time_cell(r.a_us),
                                       time_cell(r.b_us), r.ratio ? fmt::format("{:.3f}", *r.ratio) : "-", r.verdict);
        for (const CompareValue& v : r.values)
            line += fmt::format(" {:>11} {:>11}", cell(v.a, v.share), cell(v.b, v.share));
        if (algo) line += fmt::format("  {:<{}} {}", r.a_algo, algo_width, r.b_algo);
        out += line + "\n";
    }
    bool any_links = false;
    for (const CompareRow& r : c.rows) any_links = any_links || !r.a_links.empty() || !r.b_links.empty();
    if (!any_links) return out;
    out += "# busiest link directions (average rate, share of capacity):\n";
    for (const CompareRow& r : c.rows) {
        if (r.a_links.empty() && r.b_links.empty()) continue;
        out += fmt::format("# {:>{}} A: {}\n", r.key, key_width, links_text(r.a_links));
        out += fmt::format("# {:>{}} B: {}\n", "", key_width, links_text(r.b_links));
    }
    return out;
}

std::string render_compare_json(const Comparison& c) {
    nlohmann::ordered_json j;
    j["kind"] = c.kind;
    j["what"] = c.what;
    j["a"] = c.a_label;
    j["b"] = c.b_label;
    j["threshold"] = c.threshold;
    j["rows"] = nlohmann::ordered_json::array();
    for (const CompareRow& r : c.rows) {
        nlohmann::ordered_json row;
        if (c.kind == "coll")
            row["size_bytes"] = std::stoll(r.key);
        else
            row["row"] = r.key;
        row["a"] = side_json(r, true);
        row["b"] = side_json(r, false);
        row["ratio"] = r.ratio ? nlohmann::ordered_json(*r.ratio) : nlohmann::ordered_json();
        row["verdict"] = r.verdict;
        j["rows"].push_back(std::move(row));
    }
    return j.dump(2) + "\n";
}

std::string render_compare_csv(const Comparison& c) {
    std::string out = c.kind == "coll" ? "size_bytes" : "row";
    out += ",a_time_us,b_time_us,ratio,verdict";
    // A row without one of the figures leaves it empty.
    const std::vector<std::string> names = value_names(c);
    for (const std::string& n : names) out += ",a_" + n + ",b_" + n;
    out += ",a_algo,b_algo,a_top_link,a_top_utilisation,b_top_link,b_top_utilisation\n";
    const auto num = [](std::optional<double> v) { return v ? fmt::format("{:.6f}", *v) : std::string(); };
    const auto top = [&num](const std::vector<CompareLink>& links) {
        return links.empty() ? std::string(",") : links.front().name + "," + num(links.front().utilisation);
    };
    for (const CompareRow& r : c.rows) {
        out += fmt::format("{},{},{},{},{}", r.key, num(r.a_us), num(r.b_us), num(r.ratio), r.verdict);
        for (const std::string& n : names) {
            const auto v = std::find_if(r.values.begin(), r.values.end(), [&](const CompareValue& x) { return x.name == n; });
            out += v == r.values.end() ? std::string(",,") : "," + num(v->a) + "," + num(v->b);
        }
        out += fmt::format(",{},{},{},{}\n", r.a_algo, r.b_algo, top(r.a_links), top(r.b_links));
    }
    return out;
}

std::string render_compare_html(const Comparison& c, const HtmlProvenance& p) {
    HtmlReport html("collsim compare: " + c.what);
    html.paragraph("A: " + c.a_label).paragraph("B: " + c.b_label);
    html.paragraph(fmt::format("B/A: B's time over A's; same within {:.1f}%.", c.threshold * 100));
    BarChart chart{"B/A (time) per row: right of 1, B is slower", "B/A", 1, {}};
    for (const CompareRow& r : c.rows) {
        const char* colour = r.verdict == "slower" ? kWorseColour : r.verdict == "faster" ? kBetterColour : kSameColour;
        const std::string note = r.ratio ? fmt::format("{:.3f} {}", *r.ratio, r.verdict) : r.verdict;
        chart.bars.push_back(Bar{c.kind == "coll" ? size_label(std::stod(r.key)) : r.key, r.ratio.value_or(1.0), colour, note});
    }
    html.heading("B against A").figure(bar_chart_svg(chart));
    const std::vector<std::string> names = value_names(c);
    HtmlTable t{{c.kind == "coll" ? "size" : "row", "A time (us)", "B time (us)", "B/A", "verdict"}, {}};
    for (const std::string& n : names) t.header.push_back("A " + n), t.header.push_back("B " + n);
    t.header.push_back("A algo"), t.header.push_back("B algo");
    for (const CompareRow& r : c.rows) {
        std::vector<std::string> row{r.key, time_cell(r.a_us), time_cell(r.b_us),
                                     r.ratio ? fmt::format("{:.3f}", *r.ratio) : "-", r.verdict};
        for (const std::string& n : names) {
            const auto v = std::find_if(r.values.begin(), r.values.end(), [&](const CompareValue& x) { return x.name == n; });
            row.push_back(v == r.values.end() ? "" : cell(v->a, v->share));
            row.push_back(v == r.values.end() ? "" : cell(v->b, v->share));
        }
        row.push_back(r.a_algo), row.push_back(r.b_algo);
        t.rows.push_back(std::move(row));
    }
    html.heading("Rows").table(t);
    HtmlTable links{{c.kind == "coll" ? "size" : "row", "side", "link direction", "average (GB/s)", "share of capacity"}, {}};
    for (const CompareRow& r : c.rows)
        for (const auto& [side, list] : {std::pair{"A", &r.a_links}, std::pair{"B", &r.b_links}})
            for (const CompareLink& l : *list)
                links.rows.push_back({r.key, side, l.name, fmt::format("{:.2f}", l.average_GBps),
                                      fmt::format("{:.0f}%", l.utilisation * 100)});
    if (!links.rows.empty()) html.heading("Busiest link directions").table(links);
    return html.render(p);
}

}  // namespace collsim
