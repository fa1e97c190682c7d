#include "sim/validate/nccl_log_reader.hpp"

#include <set>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/validate/text_fields.hpp"

namespace collsim {

namespace {

enum class Column { size, count, type, redop, root, time, algbw, busbw, error, wrong };

struct TableColumn {
    Column what;
    int group;  // 0 out-of-place, 1 in-place
};

// Reads the column header ("#  size  count  type  redop  root  time ...").
// nccl-tests prints size, count and type, optionally redop and root, then a
// (time, algbw, busbw, error|#wrong) group for out-of-place and one for in-place.
std::vector<TableColumn> table_columns(const std::vector<Word>& words, const SourceLocation& at) {
    std::vector<TableColumn> cols;
    int group = -1;
    for (std::size_t i = 1; i < words.size(); ++i) {
        const std::string_view w = words[i].text;
        Column c;
        if (w == "size") c = Column::size;
        else if (w == "count") c = Column::count;
        else if (w == "type") c = Column::type;
        else if (w == "redop") c = Column::redop;
        else if (w == "root") c = Column::root;
        else if (w == "time") c = Column::time, ++group;
        else if (w == "algbw") c = Column::algbw;
        else if (w == "busbw") c = Column::busbw;
        else if (w == "error") c = Column::error;
        else if (w == "#wrong") c = Column::wrong;
        else
            throw InputError(SourceLocation{at.file, at.line, words[i].column}, "table header",
                             "a column nccl-tests prints (size, count, type, redop, root, time, algbw, busbw, "
                             "error, #wrong)",
                             "'" + std::string(w) + "'");
        if (group > 1)
            throw InputError(SourceLocation{at.file, at.line, words[i].column}, "table header",
                             "an out-of-place and an in-place column group", "a third 'time' column");
        cols.push_back(TableColumn{c, std::max(group, 0)});
    }
    if (cols.size() < 6 || cols[0].what != Column::size || cols[1].what != Column::count ||
        cols[2].what != Column::type || group < 0)
        throw InputError(at, "table header", "'size count type ... time algbw busbw ...'",
                         fmt::format("{} columns of another layout", cols.size()));
    return cols;
}

bool is_table_header(const std::vector<Word>& words) {
    return words.size() > 2 && words[0].text == "#" && words[1].text == "size";
}

// NCCL's own log lines: "host:pid:tid [dev] NCCL INFO ...".
bool is_nccl_log_line(const std::vector<Word>& words) {
    return words.size() >= 3 && words[1].text.size() > 2 && words[1].text.front() == '[' &&
           words[1].text.back() == ']' && words[2].text == "NCCL";
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

class LogParser {
public:
    LogParser(const std::string& text, const std::string& name) : text_(text) { m_.file = name; }

    Measurement run() {
        const auto lines = split_lines(text_);
        refuse_markdown(lines);
        for (std::size_t i = 0; i < lines.size(); ++i) line(lines[i], static_cast<int>(i) + 1);
        finish(static_cast<int>(lines.size()));
        return std::move(m_);
    }

private:
    SourceLocation at(int line, int col = 1) const { return SourceLocation{m_.file, line, col}; }

    // A log pasted into Markdown (an issue, a wiki, a README) and copied back
    // has ``` fences, and its '# ' lines became headings and lost the '#':
    // every line after would be "garbled", so the paste is named instead.
    void refuse_markdown(const std::vector<std::string_view>& lines) const {
        static constexpr const char* kFix =
            "paste the raw output as nccl-tests printed it, or delete the fence lines and put '#' back at the start "
            "of the header lines ('# nThread ...', '#  size  count  type ...')";
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const std::string_view s = trim(lines[i]);
            const int n = static_cast<int>(i) + 1;
            if (starts_with(s, "```") || starts_with(s, "~~~"))
                throw InputError(at(n), "log", fmt::format("raw nccl-tests output; {}", kFix),
                                 fmt::format("a Markdown code fence {}: a log pasted into Markdown", quote_input(s, 20)));
            const auto words = split_words(lines[i]);
            const bool header = words.size() > 2 && words[0].text == "size" && words[1].text == "count";
            if (header || starts_with(s, "nThread ") || starts_with(s, "nccl-tests version ") ||
                starts_with(s, "Collective test ") || starts_with(s, "Avg bus bandwidth"))
                throw InputError(at(n), "log", fmt::format("raw nccl-tests output; {}", kFix),
                                 fmt::format("{} without its '#': a log pasted into Markdown, which made its '# ' "
                                             "lines headings",
                                             quote_input(s, 40)));
        }
    }

    void line(std::string_view raw, int n) {
        const std::string_view s = trim(raw);
        if (s.empty()) return;
        const auto words = split_words(raw);  // columns count from the raw line's start
        if (s.front() == '#') return comment(s, words, n);
        if (is_nccl_log_line(words)) return nccl_line(words, n);
        if (starts_with(s, "NCCL version ")) {
            m_.nccl_version = find_version(s);
            return;
        }
        if (columns_.empty() || footer_line_ > 0 || !parse_integer(words[0].text))
            throw InputError(at(n, words[0].column), "line",
                             columns_.empty()   ? "nccl-tests output: '#' header lines, NCCL log lines, then the table"
                             : footer_line_ > 0 ? "nothing after the '# Avg bus bandwidth' footer but '#' lines"
                                                : "a table row, a '#' line or an NCCL log line",
                             "'" + std::string(s.substr(0, 60)) + "'");
        row(words, n);
    }

    // "host:pid:tid [0] NCCL INFO NCCL_ALGO set by environment to Ring": what the run forced.
    void nccl_line(const std::vector<Word>& words, int n) {
        if (words.size() != 10 || words[3].text != "INFO" || words[5].text != "set" || words[7].text != "environment" ||
            words[8].text != "to" || words[4].text.substr(0, 5) != "NCCL_")
            return;
        // Every rank's process prints it: one line says it; a different value stays for the check.
        for (const auto& s : m_.nccl_env)
            if (s.name == words[4].text && s.value == words[9].text) return;
        m_.nccl_env.push_back(
            NcclSetting{std::string(words[4].text), std::string(words[9].text), at(n, words[4].column)});
    }

    void comment(std::string_view s, const std::vector<Word>& words, int n) {
        // collsim's harness states the NCCL_ALGO / NCCL_PROTO it exported on its first line.
        if (starts_with(s, "# collsim-harness")) {
            const auto offset = static_cast<int>(words[0].column) - 1;
            for (auto& setting : nccl_settings_in(s, m_.file, n, offset + 1)) m_.nccl_env.push_back(std::move(setting));
            return;
        }
        if (is_table_header(words)) {
            if (!columns_.empty())
                throw InputError(at(n), "table header",
                                 fmt::format("one table per log (the first began at line {})", table_line_),
                                 "a second table: several runs mixed in one file");
            columns_ = table_columns(words, at(n));
            table_line_ = n;
            return;
        }
        if (starts_with(s, "# nThread") || starts_with(s, "# Collective test starting") ||
            starts_with(s, "# nccl-tests version")) {
            if (starts_with(s, "# nThread") && run_header_line_ > 0)
                throw InputError(at(n), "run header",
                                 fmt::format("one run per log (its header is at line {})", run_header_line_),
                                 "a second '# nThread' line: several runs mixed in one file");
            if (starts_with(s, "# nThread")) {
                run_header_line_ = n;
                for (const auto& [value, column] : gpus_per_thread_mentions(s)) {
                    if (value < 1)
                        throw InputError(at(n, static_cast<int>(column) + 1), "nGpus", "1 or more GPUs per thread",
                                         std::to_string(value));
                    m_.gpus_per_thread = static_cast<int>(value);
                }
            }
            if (starts_with(s, "# Collective test starting")) {
                const auto colon = s.find(':');
                m_.test_name = std::string(trim(s.substr(colon + 1)));
                m_.op = coll_op_named_in(m_.test_name, at(n, static_cast<int>(colon) + 3));
            }
            if (starts_with(s, "# nccl-tests version")) {
                const auto lib = s.find("nccl-library=");
                if (lib != std::string_view::npos)
                    if (auto code = parse_integer(split_words(s.substr(lib + 13))[0].text))
                        if (m_.nccl_version.empty()) m_.nccl_version = nccl_version_from_code(*code);
            }
            return;
        }
        if (words.size() > 2 && words[1].text == "Rank") {
            auto r = parse_integer(words[2].text);
            if (!r || *r < 0) throw InputError(at(n, words[2].column), "device list", "a rank number", "'" + std::string(words[2].text) + "'");
            if (!ranks_.insert(*r).second)
                throw InputError(at(n, words[2].column), "device list", "each rank listed once",
                                 fmt::format("rank {} again: several runs mixed in one file", *r));
            // "#  Rank  0 Group  0 Pid  1326 on  host-a device  0 [..] NVIDIA ...": the word after "on".
            for (std::size_t k = 3; k + 1 < words.size(); ++k)
                if (words[k].text == "on") {
                    hosts_.insert(std::string(words[k + 1].text));
                    break;
                }
            return;
        }
        if (starts_with(s, "# Out of bounds values")) {
            if (s.find("FAILED") != std::string_view::npos)
                throw InputError(at(n), "data check", "'# Out of bounds values : 0 OK'",
                                 "'" + std::string(s) + "': the run failed its data check");
            return;
        }
        if (starts_with(s, "# Avg bus bandwidth")) {
            if (columns_.empty() || m_.rows.empty())
                throw InputError(at(n), "table", "rows before the '# Avg bus bandwidth' footer", "none");
            const auto colon = s.find(':');
            auto v = colon == std::string_view::npos ? std::nullopt : parse_number(trim(s.substr(colon + 1)));
            if (!v) throw InputError(at(n), "Avg bus bandwidth", "a number after ':'", "'" + std::string(s) + "'");
            m_.avg_busbw_GBps = *v;
            footer_line_ = n;
        }
        // Other '#' lines (units, "out-of-place in-place", "Using devices") carry nothing we need.
    }

    void row(std::vector<Word> words, int n) {
        // Old nccl-tests print a redop column for AllToAll and leave its cell
        // empty: a row one field short whose redop place holds a number
        // (the time) lacks only that cell.
        for (std::size_t k = 0; k < columns_.size() && words.size() + 1 == columns_.size(); ++k)
            if (columns_[k].what == Column::redop) {
                if (k <= words.size() && (k == words.size() || parse_number(words[k].text)))
                    words.insert(words.begin() + static_cast<std::ptrdiff_t>(k),
                                 Word{std::string_view{}, k < words.size() ? words[k].column : 0});
                break;
            }
        if (words.size() != columns_.size())
            throw InputError(at(n), "row",
                             fmt::format("{} fields like the table header at line {}", columns_.size(), table_line_),
                             fmt::format("{}: a cut-off or garbled row", words.size()));
        MeasuredRow r;
        r.line = n;
        for (std::size_t i = 0; i < words.size(); ++i) {
            const auto& w = words[i];
            auto& res = r.result[static_cast<std::size_t>(columns_[i].group)];
            // "N/A": a group the run did not measure (the harness's in-place AllToAll).
            auto number = [&](const char* field) -> std::optional<double> {
                if (w.text == "N/A") return std::nullopt;
                auto v = parse_number(w.text);
                if (!v || *v < 0)
                    throw InputError(at(n, w.column), field, "a number that is not negative, or N/A",
                                     "'" + std::string(w.text) + "'");
                return v;
            };
            switch (columns_[i].what) {
                case Column::size: {
                    auto v = parse_integer(w.text);
                    if (!v || *v < 0) throw InputError(at(n, w.column), "size", "a byte count", "'" + std::string(w.text) + "'");
                    r.size = Bytes(*v);
                    break;
                }
                case Column::count: {
                    auto v = parse_integer(w.text);
                    if (!v || *v < 0) throw InputError(at(n, w.column), "count", "an element count", "'" + std::string(w.text) + "'");
                    r.count = *v;
                    break;
                }
                case Column::type: r.type = std::string(w.text); break;
                case Column::redop:
                case Column::root:
                case Column::error: break;  // an error magnitude; "N/A" when not checked
                case Column::time: res.time_us = number("time"); break;
                case Column::algbw: res.algbw_GBps = number("algbw"); break;
                case Column::busbw: res.busbw_GBps = number("busbw"); break;
                case Column::wrong: {
                    if (w.text == "N/A") break;
                    auto v = parse_integer(w.text);
                    if (!v || *v != 0)
                        throw InputError(at(n, w.column), "#wrong", "0 wrong elements",
                                         "'" + std::string(w.text) + "': the run failed NCCL's data check");
                    break;
                }
            }
        }
        m_.rows.push_back(std::move(r));
    }

    void finish(int last_line) {
        if (columns_.empty())
            throw InputError(at(last_line), "table", "an nccl-tests table ('#  size  count  type ...')", "none in the file");
        if (footer_line_ == 0)
            throw InputError(at(last_line), "footer", "the '# Avg bus bandwidth' line that ends every nccl-tests run",
                             fmt::format("the end of the file after line {}: the log is truncated or the run died",
                                         last_line));
        if (!ranks_.empty()) {
            if (*ranks_.rbegin() + 1 != static_cast<int64_t>(ranks_.size()))
                throw InputError(at(table_line_), "device list", "ranks 0 to N-1, each once",
                                 fmt::format("{} ranks numbered up to {}", ranks_.size(), *ranks_.rbegin()));
            m_.ranks = static_cast<int>(ranks_.size());
            m_.hosts = static_cast<int>(hosts_.size());
        }
        if (!m_.op) {
            const auto slash = m_.file.find_last_of('/');
            m_.test_name = m_.file.substr(slash == std::string::npos ? 0 : slash + 1);
            m_.op = coll_op_named_in(m_.test_name, at(0));
            if (!m_.op) m_.test_name.clear();
        }
    }

    const std::string& text_;
    Measurement m_;
    std::vector<TableColumn> columns_;
    std::set<int64_t> ranks_;
    std::set<std::string> hosts_;
    int table_line_ = 0, run_header_line_ = 0, footer_line_ = 0;
};

}  // namespace

Measurement parse_nccl_log(const std::string& text, const std::string& name) { return LogParser(text, name).run(); }

}  // namespace collsim
