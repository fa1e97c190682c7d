#include "sim/validate/nccl_csv_reader.hpp"

#include <array>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/validate/text_fields.hpp"

namespace collsim {

namespace {

constexpr std::string_view kHeader =
    "size_bytes,count,type,redop,oop_time_us,oop_algbw_GBps,oop_busbw_GBps,ip_time_us,ip_algbw_GBps,ip_busbw_GBps";
constexpr std::size_t kColumns = 10;

std::string header_value(const Measurement& m, std::string_view key) {
    for (const auto& [k, v] : m.header)
        if (k == key) return v;
    return {};
}

}  // namespace

Measurement parse_nccl_csv(const std::string& text, const std::string& name) {
    Measurement m;
    m.file = name;
    const auto lines = split_lines(text);
    int header_line = 0, collective_line = 0, env_line = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const int n = static_cast<int>(i) + 1;
        const std::string_view s = trim(lines[i]);
        if (s.empty()) continue;
        // A file cut short ends inside its last row, whose cut last field
        // still reads as a number: a row must end with its line break.
        if (i + 1 == lines.size() && s.front() != '#' && !text.empty() && text.back() != '\n')
            throw InputError(SourceLocation{name, n, static_cast<int>(lines[i].size()) + 1}, "row",
                             "a line break after the last row (is the file cut short?)", "the end of the file");
        if (s.front() == '#') {
            const auto colon = s.find(':');
            if (header_line == 0 && colon != std::string_view::npos) {
                const std::string key(trim(s.substr(1, colon - 1)));
                m.header.emplace_back(key, std::string(trim(s.substr(colon + 1))));
                if (key == "collective") collective_line = n;
                if (key == "env") env_line = n;
            }
            continue;
        }
        if (header_line == 0) {
            if (s != kHeader)
                throw InputError(SourceLocation{name, n, 1}, "CSV header", "'" + std::string(kHeader) + "'",
                                 "'" + std::string(s.substr(0, 80)) + "'");
            header_line = n;
            continue;
        }
        const auto fields = split_fields(lines[i], ',');
        if (fields.size() != kColumns)
            throw InputError(SourceLocation{name, n, 1}, "row", fmt::format("{} fields like the header", kColumns),
                             fmt::format("{}: a cut-off or garbled row", fields.size()));
        auto at = [&](std::size_t f) { return SourceLocation{name, n, fields[f].column}; };
        MeasuredRow r;
        r.line = n;
        auto size = parse_integer(fields[0].text);
        if (!size || *size < 0) throw InputError(at(0), "size_bytes", "a byte count", "'" + std::string(fields[0].text) + "'");
        r.size = Bytes(*size);
        if (!fields[1].text.empty()) {
            auto count = parse_integer(fields[1].text);
            if (!count || *count < 0)
                throw InputError(at(1), "count", "an element count or nothing", "'" + std::string(fields[1].text) + "'");
            r.count = count;
        }
        r.type = std::string(fields[2].text);
        static constexpr std::array<const char*, 6> kNames{"oop_time_us", "oop_algbw_GBps", "oop_busbw_GBps",
                                                           "ip_time_us",  "ip_algbw_GBps",  "ip_busbw_GBps"};
        bool any = false;
        for (std::size_t k = 0; k < 6; ++k) {
            const auto& f = fields[4 + k];
            if (f.text.empty()) continue;
            auto v = parse_number(f.text);
            if (!v || *v < 0)
                throw InputError(at(4 + k), kNames[k], "a number that is not negative, or nothing", "'" + std::string(f.text) + "'");
            auto& res = r.result[k / 3];
            (k % 3 == 0 ? res.time_us : k % 3 == 1 ? res.algbw_GBps : res.busbw_GBps) = *v;
            any = true;
        }
        if (!any)
            throw InputError(at(4), "row", "at least one time or bandwidth", "six empty fields");
        m.rows.push_back(std::move(r));
    }
    const int last = static_cast<int>(lines.size());
    if (header_line == 0)
        throw InputError(SourceLocation{name, last, 1}, "CSV header", "'" + std::string(kHeader) + "'", "none in the file");
    if (m.rows.empty()) throw InputError(SourceLocation{name, last, 1}, "rows", "at least one row", "none");

    const std::string collective = header_value(m, "collective");
    if (!collective.empty()) {
        m.test_name = collective.substr(0, collective.find_first_of(" ,;("));
        m.op = coll_op_named_in(collective, SourceLocation{name, collective_line, 1});
        // "all_reduce_perf -b 8 -e 128M -g 8 (single process ...)": the command line says how many
        // GPUs each thread drove; two different figures there leave it for datasets.yaml or the
        // command line to say (Dataset, where it is an error if neither does).
        const int offset = static_cast<int>(lines[static_cast<std::size_t>(collective_line - 1)].find(collective)) + 1;
        for (const auto& [value, column] : gpus_per_thread_mentions(collective)) {
            const SourceLocation at{name, collective_line, offset + static_cast<int>(column)};
            if (value < 1) throw InputError(at, "collective", "-g with 1 or more GPUs per thread", std::to_string(value));
            if (m.gpus_per_thread && *m.gpus_per_thread != value) {
                if (!m.gpus_per_thread_conflict) m.gpus_per_thread_conflict = at;
                continue;
            }
            if (!m.gpus_per_thread_conflict) m.gpus_per_thread = static_cast<int>(value);
        }
    }
    if (!m.op) {
        const auto slash = name.find_last_of('/');
        m.test_name = name.substr(slash == std::string::npos ? 0 : slash + 1);
        m.op = coll_op_named_in(m.test_name, SourceLocation{name, 0, 0});
        if (!m.op) m.test_name.clear();
    }
    if (env_line > 0) {
        const std::string_view raw = lines[static_cast<std::size_t>(env_line - 1)];
        const std::size_t value = raw.find(':') + 1;
        m.nccl_env = nccl_settings_in(raw.substr(value), name, env_line, static_cast<int>(value) + 1);
    }
    // "2.18.5 (from the page's system table)" but not "not printed; ... => 2.29.3":
    // only a version the source printed is a record of what ran.
    const std::string version = header_value(m, "NCCL version");
    if (version.rfind("not", 0) != 0) m.nccl_version = find_version(version);
    // "# gpus: 8 x NVIDIA A100-SXM4-40GB"
    const std::string gpus = header_value(m, "gpus");
    const auto x = gpus.find(" x ");
    if (x != std::string::npos)
        if (auto n = parse_integer(trim(std::string_view(gpus).substr(0, x)))) m.ranks = static_cast<int>(*n);
    return m;
}

}  // namespace collsim
