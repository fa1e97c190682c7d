#include "sim/sweep/sweep_csv.hpp"

#include <filesystem>
#include <fstream>
#include <optional>

#include <fmt/format.h>

namespace collsim {

namespace {

std::string field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string join_fields(const std::vector<std::string>& fields) {
    std::string out;
    for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + field(fields[i]);
    return out;
}

}  // namespace

std::string sweep_csv_header(const SweepSpec& spec) {
    std::vector<std::string> names{"point"};
    for (const auto& p : spec.parameters) names.push_back(p.name);
    for (const auto& m : sweep_metric_names(spec.command)) names.push_back(m);
    return join_fields(names);
}

std::string sweep_csv_row(std::size_t point, const std::vector<std::string>& values,
                          const std::vector<std::string>& metrics) {
    std::vector<std::string> fields{std::to_string(point)};
    fields.insert(fields.end(), values.begin(), values.end());
    fields.insert(fields.end(), metrics.begin(), metrics.end());
    return join_fields(fields);
}

std::optional<std::vector<std::string>> split_csv_line(const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c != '"') out.back() += c;
            else if (i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
            else quoted = false;
        } else if (c == '"' && out.back().empty()) {
            quoted = true;
        } else if (c == ',') {
            out.emplace_back();
        } else if (c == '"') {
            return std::nullopt;
        } else {
            out.back() += c;
        }
    }
    if (quoted) return std::nullopt;
    return out;
}

std::map<std::vector<std::string>, std::vector<std::string>> read_sweep_csv(const std::string& path,
                                                                            const SweepSpec& spec) {
    std::map<std::vector<std::string>, std::vector<std::string>> rows;
    if (!std::filesystem::exists(path)) return rows;
    std::ifstream in(path);
    std::string line;
    const std::string header = sweep_csv_header(spec);
    if (!std::getline(in, line)) return rows;  // empty: nothing done yet
    if (line != header)
        throw InputError(SourceLocation{path, 1, 1}, "header",
                         fmt::format("the header of this spec's results, '{}' (resume reads only its own spec's "
                                     "output; write elsewhere with -o)",
                                     header),
                         quote_input(line));
    const std::size_t params = spec.parameters.size(), metrics = sweep_metric_names(spec.command).size();
    for (int n = 2; std::getline(in, line); ++n) {
        if (line.empty()) continue;
        const auto fields = split_csv_line(line);
        if (!fields || fields->size() != 1 + params + metrics)
            throw InputError(SourceLocation{path, n, 1}, "row",
                             fmt::format("{} comma-separated fields, as the header", 1 + params + metrics),
                             quote_input(line));
        std::vector<std::string> key(fields->begin() + 1, fields->begin() + 1 + static_cast<std::ptrdiff_t>(params));
        rows[std::move(key)] =
            std::vector<std::string>(fields->begin() + 1 + static_cast<std::ptrdiff_t>(params), fields->end());
    }
    return rows;
}

}  // namespace collsim
