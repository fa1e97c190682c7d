#include "sim/validate/measurement.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/text_file.hpp"
#include "sim/validate/nccl_csv_reader.hpp"
#include "sim/validate/nccl_log_reader.hpp"
#include "sim/validate/text_fields.hpp"

namespace collsim {

namespace {

// The first line that is neither a comment nor NCCL's own log tells the CSV
// form (a header of ten comma-separated names) from raw nccl-tests output,
// whose table rows have no commas.
bool looks_like_csv(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#' || line.find(" NCCL ") != std::string::npos) continue;
        return std::count(line.begin(), line.end(), ',') >= 5;
    }
    return false;
}

// Printed bandwidths carry two decimals: half a unit in the last place.
constexpr double kPrintedHalfUnit = 0.005;

}  // namespace

Measurement read_measurement(const std::string& path) { return parse_measurement(read_text_file(path), path); }

Measurement parse_measurement(const std::string& text, const std::string& name) {
    return looks_like_csv(text) ? parse_nccl_csv(text, name) : parse_nccl_log(text, name);
}

std::optional<CollOp> coll_op_named_in(const std::string& text, const SourceLocation& where) {
    const std::string s = lower_case(text);
    // Longer names first: "all_reduce" contains "reduce", "reduce_scatter" too.
    static constexpr std::array<std::pair<std::string_view, CollOp>, 13> kNames{{
        {"reduce_scatter", CollOp::reducescatter},
        {"reducescatter", CollOp::reducescatter},
        {"all_reduce", CollOp::allreduce},
        {"allreduce", CollOp::allreduce},
        {"all_gather", CollOp::allgather},
        {"allgather", CollOp::allgather},
        {"all_to_all", CollOp::alltoall},
        {"alltoall", CollOp::alltoall},
        {"broadcast", CollOp::broadcast},
        {"sendrecv", CollOp::sendrecv},
        {"send_recv", CollOp::sendrecv},
        {"reduce_perf", CollOp::reduce},
        {"reduce", CollOp::reduce},
    }};
    std::size_t best = std::string::npos;
    std::optional<CollOp> op;
    for (const auto& [n, o] : kNames) {
        const auto at = s.find(n);
        // The earliest mention wins ("all_gather ... -t all_gather" and
        // "allreduce of reduce_scatter output" both name their first op).
        if (at != std::string::npos && (best == std::string::npos || at < best)) best = at, op = o;
    }
    if (op) return op;
    for (std::string_view other : {"gather", "scatter", "hypercube"}) {
        if (s.find(other) != std::string::npos)
            throw InputError(where, "collective",
                             "a collective collsim models (all_reduce, all_gather, reduce_scatter, alltoall, "
                             "broadcast, reduce, sendrecv)",
                             "'" + text + "'");
    }
    return std::nullopt;
}

std::optional<double> measured_time_us(const MeasuredRow& row, CollOp op, int ranks) {
    double sum = 0;
    int n = 0;
    for (const auto& r : row.result)
        if (r.time_us) sum += *r.time_us, ++n;
    if (n > 0) return sum / n;
    const double factor = busbw_factor(op, ranks);
    for (const auto& r : row.result) {
        // Only figures whose rounding moves the time by at most 1%.
        if (r.busbw_GBps && *r.busbw_GBps >= 100 * kPrintedHalfUnit)
            return static_cast<double>(row.size.count()) * factor / *r.busbw_GBps / 1e3;
        if (r.algbw_GBps && *r.algbw_GBps >= 100 * kPrintedHalfUnit)
            return static_cast<double>(row.size.count()) / *r.algbw_GBps / 1e3;
    }
    return std::nullopt;
}

std::optional<int> ranks_from_bandwidths(const Measurement& m, CollOp op) {
    if (op == CollOp::broadcast || op == CollOp::reduce || op == CollOp::sendrecv) return std::nullopt;
    double best_alg = 1.0, best_bus = 0;
    for (const auto& row : m.rows)
        for (const auto& r : row.result)
            if (r.algbw_GBps && r.busbw_GBps && *r.algbw_GBps >= best_alg) best_alg = *r.algbw_GBps, best_bus = *r.busbw_GBps;
    if (best_bus <= 0) return std::nullopt;
    const double ratio = best_bus / best_alg;
    // AllReduce: ratio = 2(n-1)/n; the others here: (n-1)/n.
    const double cap = op == CollOp::allreduce ? 2.0 : 1.0;
    if (ratio >= cap - 1e-9) return std::nullopt;
    const double n = cap / (cap - ratio);
    return n < 0.5 || n > 1e6 ? std::nullopt : std::optional<int>(static_cast<int>(std::lround(n)));
}

void check_measurement(const Measurement& m, CollOp op, int ranks) {
    const double factor = busbw_factor(op, ranks);
    const bool per_rank_count = op == CollOp::allgather || op == CollOp::reducescatter || op == CollOp::alltoall;
    Bytes previous{};
    for (const auto& row : m.rows) {
        const SourceLocation at{m.file, row.line, 1};
        if (row.size < previous)
            throw InputError(at, "size", fmt::format("sizes that never fall (the previous row had {} B)", previous.count()),
                             fmt::format("{} B: several runs mixed in one file?", row.size.count()));
        previous = row.size;
        if (row.count && !row.type.empty()) {
            const auto dtype = dtype_from(row.type);
            if (!dtype)
                throw InputError(at, "type", std::string(dtype_choices()), "'" + row.type + "'");
            const int64_t expect = *row.count * dtype->size * (per_rank_count ? ranks : 1);
            if (expect != row.size.count())
                throw InputError(at, "count",
                                 fmt::format("count x {} B{} = the size, {} B", dtype->size,
                                             per_rank_count ? fmt::format(" x {} ranks", ranks) : "",
                                             row.size.count()),
                                 fmt::format("{} elements, {} B: the log is not from {} on {} ranks", *row.count,
                                             expect, to_string(op), ranks));
        }
        // A collective takes at least a nanosecond: below it, a figure is a
        // typo or an overflow (a busbw of 1e308), and errors relative to it are not numbers.
        if (const auto t = measured_time_us(row, op, ranks); t && *t < 1e-3)
            throw InputError(at, "time", "at least 1 ns (a busbw or algbw that a collective can reach)",
                             fmt::format("{:g} us", *t));
        for (const auto& r : row.result) {
            if (!r.algbw_GBps || !r.busbw_GBps || *r.algbw_GBps < 1.0) continue;
            const double tol = kPrintedHalfUnit * (1 + factor) + 1e-4 * *r.busbw_GBps + 1e-9;
            if (std::abs(*r.busbw_GBps - *r.algbw_GBps * factor) > tol)
                throw InputError(at, "busbw",
                                 fmt::format("algbw x {:.4f} = {:.2f} GB/s ({} on {} ranks)", factor,
                                             *r.algbw_GBps * factor, to_string(op), ranks),
                                 fmt::format("{:.2f} GB/s, which implies {} ranks", *r.busbw_GBps,
                                             ranks_from_bandwidths(m, op).value_or(0)));
        }
    }
}

}  // namespace collsim
