#include "sim/report/html_report.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "sim/core/fnv1a.hpp"
#include "sim/core/text_file.hpp"
#include "sim/report/svg_text.hpp"

namespace collsim {

namespace {

// Inline, so that the file needs nothing beside it.
constexpr const char* kStyle =
    "body{font-family:sans-serif;font-size:14px;margin:24px;color:#222;max-width:1200px}"
    "h1{font-size:20px}h2{font-size:16px;margin-top:28px;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;margin:8px 0;font-size:12px}"
    "th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;white-space:nowrap}"
    "th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "tr:nth-child(even) td{background:#fafafa}figure{margin:8px 0}"
    "code{font-size:12px;background:#f4f4f4;padding:1px 3px;word-break:break-all}";

// A cell right-aligned as a figure: "12.5", "-3%", "+0.2%", "1.000", "64K".
bool looks_numeric(const std::string& s) {
    if (s.empty()) return false;
    std::size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0;
    if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    for (; i < s.size(); ++i) {
        const char c = s[i];
        if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.' && c != 'e' && c != '%' && c != 'K' && c != 'M' &&
            c != 'G')
            return false;
    }
    return true;
}

}  // namespace

HtmlInput hashed_input(const std::string& role, const std::string& path) {
    return HtmlInput{role, path, fnv1a64_hex(read_text_file(path))};
}

void add_input(std::vector<HtmlInput>& inputs, const std::string& role, const std::string& path) {
    if (path.empty()) return;
    if (std::any_of(inputs.begin(), inputs.end(), [&](const HtmlInput& i) { return i.path == path; })) return;
    inputs.push_back(hashed_input(role, path));
}

HtmlReport::HtmlReport(std::string title) : title_(std::move(title)) {}

HtmlReport& HtmlReport::heading(const std::string& text) {
    body_ += "<h2>" + escape_xml(text) + "</h2>\n";
    return *this;
}

HtmlReport& HtmlReport::paragraph(const std::string& text) {
    body_ += "<p>" + escape_xml(text) + "</p>\n";
    return *this;
}

HtmlReport& HtmlReport::table(const HtmlTable& t) {
    body_ += "<table>\n<thead><tr>";
    for (const std::string& h : t.header) body_ += "<th>" + escape_xml(h) + "</th>";
    body_ += "</tr></thead>\n<tbody>\n";
    for (const auto& row : t.rows) {
        body_ += "<tr>";
        for (const std::string& c : row)
            body_ += (looks_numeric(c) ? "<td class=\"num\">" : "<td>") + escape_xml(c) + "</td>";
        body_ += "</tr>\n";
    }
    body_ += "</tbody>\n</table>\n";
    return *this;
}

HtmlReport& HtmlReport::figure(const std::string& svg) {
    body_ += "<figure>\n" + svg + (svg.ends_with('\n') ? "" : "\n") + "</figure>\n";
    return *this;
}

std::string HtmlReport::render(const HtmlProvenance& p) const {
    std::string out = fmt::format(
        "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
        // The page may fetch nothing and run nothing: a browser refuses (and
        // logs) any load, so the report is known to be whole as it stands.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\"/>\n"
        "<title>{0}</title>\n<style>{1}</style>\n</head>\n<body>\n<h1>{0}</h1>\n",
        escape_xml(title_), kStyle);
    out += body_;
    out += "<h2>How this report was made</h2>\n<p>collsim " + escape_xml(p.version) + ": <code id=\"command\">" +
           escape_xml(p.command_line) + "</code></p>\n";
    HtmlReport inputs("");
    HtmlTable t{{"input", "path", "FNV-1a 64"}, {}};
    for (const HtmlInput& i : p.inputs) t.rows.push_back({i.role, i.path, i.fnv1a64});
    inputs.table(t);
    return out + inputs.body_ + "</body>\n</html>\n";
}

void write_html_report(const std::string& path, const std::string& html) { write_text_file_whole(path, html, "--html"); }

}  // namespace collsim
