#include "sim/faults/rank_timings.hpp"

#include <array>
#include <cmath>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/json_input.hpp"
#include "sim/core/text_file.hpp"
#include "sim/faults/replay_timings.hpp"

namespace collsim {

namespace {
struct Cell {
    std::string text;
    int column = 1;  // 1-based character column where it starts
};

std::vector<Cell> split_csv_line(const std::string& line) {
    std::vector<Cell> cells;
    std::size_t start = 0;
    for (;;) {
        const std::size_t pos = line.find(',', start);
        std::string t = line.substr(start, pos == std::string::npos ? std::string::npos : pos - start);
        while (!t.empty() && (t.back() == ' ' || t.back() == '\r')) t.pop_back();
        std::size_t lead = 0;
        while (lead < t.size() && t[lead] == ' ') ++lead;
        cells.push_back(Cell{t.substr(lead), static_cast<int>(start + lead) + 1});
        if (pos == std::string::npos) return cells;
        start = pos + 1;
    }
}

bool parse_number(const std::string& s, double& out) {
    if (s.empty()) return false;
    std::size_t used = 0;
    try {
        out = std::stod(s, &used);
    } catch (const std::exception&) {
        return false;
    }
    return used == s.size() && std::isfinite(out);
}

constexpr std::array<const char*, 4> kColumns{"rank", "collective", "enter_us", "exit_us"};

// A file with the same error on every row (a column of the wrong unit, say)
// is reported once, with how many rows repeat it and the last of them.
class ErrorTally {
public:
    void add(InputError e) {
        const std::string key = e.field() + '\n' + e.expected();
        auto [it, fresh] = index_.emplace(key, first_.size());
        if (fresh) {
            first_.push_back(std::move(e));
            repeats_.push_back(0);
            last_line_.push_back(0);
            return;
        }
        ++repeats_[it->second];
        last_line_[it->second] = e.where().line;
    }
    bool empty() const { return first_.empty(); }
    [[noreturn]] void raise() {
        std::vector<InputError> out;
        for (std::size_t i = 0; i < first_.size(); ++i) {
            const InputError& e = first_[i];
            out.emplace_back(e.where(), e.field(), e.expected(),
                             repeats_[i] == 0 ? e.found()
                                              : fmt::format("{} (and {} more row(s) like it, the last at line {})",
                                                            e.found(), repeats_[i], last_line_[i]));
        }
        throw InputErrors(std::move(out));
    }

private:
    std::map<std::string, std::size_t> index_;
    std::vector<InputError> first_;
    std::vector<int64_t> repeats_;
    std::vector<int> last_line_;
};
// Bounds on the two integer columns: 2^24 ranks is far beyond any job, and
// collective indices stay exact in a double below 2^53.
constexpr std::array<double, 2> kWholeBelow{16'777'216.0, 9'007'199'254'740'992.0};
}  // namespace

std::vector<RankTiming> read_rank_timings_csv(const std::string& text, const std::string& name) {
    ErrorTally errors;
    std::map<std::string, int64_t> named;  // collective names, by first appearance
    std::vector<RankTiming> rows;
    std::istringstream in(text);
    std::string line;
    int line_no = 0;
    std::array<int, 4> col{-1, -1, -1, -1};
    bool header = false;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.empty() || line[0] == '#' || line == "\r") continue;
        const auto cells = split_csv_line(line);
        if (!header) {
            header = true;
            for (std::size_t i = 0; i < cells.size(); ++i)
                for (std::size_t k = 0; k < kColumns.size(); ++k)
                    if (cells[i].text == kColumns[k]) col[k] = static_cast<int>(i);
            for (std::size_t k = 0; k < kColumns.size(); ++k)
                if (col[k] < 0)
                    errors.add(InputError(SourceLocation{name, line_no, 1}, "header",
                                          fmt::format("a column named {} (columns: rank,collective,enter_us,exit_us)",
                                                      kColumns[k]),
                                          fmt::format("'{}'", line)));
            if (!errors.empty()) errors.raise();
            continue;
        }
        if (in.eof()) {  // the last row, with no line break: a file cut inside it reads as a shorter number
            errors.add(InputError(SourceLocation{name, line_no, static_cast<int>(line.size()) + 1}, "row",
                                  "a line break after the last row (is the file cut short?)", "the end of the file"));
            break;
        }
        std::array<double, 4> v{};
        std::string label;
        bool ok = true;
        for (std::size_t k = 0; k < kColumns.size(); ++k) {
            const auto c = static_cast<std::size_t>(col[k]);
            if (c >= cells.size()) {
                errors.add(InputError(SourceLocation{name, line_no, static_cast<int>(line.size()) + 1}, kColumns[k],
                                      "a value in every column", "the row ends early"));
                ok = false;
                break;
            }
            const bool whole = k < 2;
            const bool number = parse_number(cells[c].text, v[k]);
            // A collective may be named: anything that is not a number.
            if (k == 1 && !number && !cells[c].text.empty()) {
                label = cells[c].text;
                continue;
            }
            if (!number || (whole && (v[k] < 0 || v[k] != std::floor(v[k])))) {
                errors.add(InputError(SourceLocation{name, line_no, cells[c].column}, kColumns[k],
                                      k == 0   ? "a non-negative integer"
                                      : k == 1 ? "a non-negative integer or a name"
                                               : "a time in microseconds",
                                      fmt::format("'{}'", cells[c].text)));
                ok = false;
            } else if (whole && v[k] >= kWholeBelow[k]) {
                errors.add(InputError(SourceLocation{name, line_no, cells[c].column}, kColumns[k],
                                      fmt::format("a non-negative integer below {:.0f}", kWholeBelow[k]),
                                      fmt::format("'{}'", cells[c].text)));
                ok = false;
            }
        }
        if (ok && v[3] < v[2]) {
            errors.add(InputError(SourceLocation{name, line_no, cells[static_cast<std::size_t>(col[3])].column},
                                  "exit_us", fmt::format("a time no earlier than enter_us ({})", v[2]),
                                  fmt::format("'{}'", cells[static_cast<std::size_t>(col[3])].text)));
            ok = false;
        }
        if (!ok) continue;
        int64_t collective = static_cast<int64_t>(v[1]);
        if (!label.empty())
            collective = kNamedCollectives + named.emplace(label, static_cast<int64_t>(named.size())).first->second;
        rows.push_back(RankTiming{static_cast<int>(v[0]), collective, v[2], v[3], label});
    }
    if (!header)
        errors.add(InputError(SourceLocation{name, line_no, 1}, "header", "a header row", "an empty file"));
    else if (rows.empty() && errors.empty())
        errors.add(InputError(SourceLocation{name, line_no, 1}, "rows", "at least one timing row", "none"));
    if (!errors.empty()) errors.raise();
    return rows;
}

std::vector<RankTiming> load_rank_timings(const std::string& path) {
    const std::string text = read_text_file(path);
    return looks_like_json(text) ? read_replay_timings(text, path) : read_rank_timings_csv(text, path);
}

}  // namespace collsim
