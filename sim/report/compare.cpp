#include "sim/report/compare.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/exec/collective.hpp"
#include "sim/exec/protocol.hpp"

namespace collsim {

std::string compare_verdict(std::optional<double> a_us, std::optional<double> b_us, double threshold) {
    if (!a_us && !b_us) return "both hang";
    if (!a_us) return "A hangs";
    if (!b_us) return "B hangs";
    if (*a_us <= 0) return *b_us <= 0 ? "same" : "slower";
    const double ratio = *b_us / *a_us;
    if (ratio < 1 - threshold) return "faster";
    if (ratio > 1 + threshold) return "slower";
    return "same";
}

namespace {

void finish(CompareRow& row, double threshold) {
    if (row.a_us && row.b_us && *row.a_us > 0) row.ratio = *row.b_us / *row.a_us;
    row.verdict = compare_verdict(row.a_us, row.b_us, threshold);
}

std::vector<CompareLink> coll_links(const CollRow& r) {
    std::vector<CompareLink> out;
    if (r.links)
        for (const CollLink& l : *r.links) out.push_back(CompareLink{l.name, l.average_GBps, l.utilisation});
    return out;
}

std::optional<double> unless_hung(const CollRow& r, double v) { return r.hang ? std::nullopt : std::optional(v); }

}  // namespace

void add_coll_rows(Comparison& c, const CollReport& a, const CollReport& b) {
    const std::size_t n = std::min(a.rows.size(), b.rows.size());
    for (std::size_t i = 0; i < n; ++i) {
        const CollRow& x = a.rows[i];
        const CollRow& y = b.rows[i];
        CompareRow row;
        row.key = std::to_string(x.size.count());
        row.a_us = unless_hung(x, x.time.us());
        row.b_us = unless_hung(y, y.time.us());
        row.a_algo = x.algo + "/" + x.proto;
        row.b_algo = y.algo + "/" + y.proto;
        row.values = {{"algbw_GBps", unless_hung(x, x.algbw_GBps), unless_hung(y, y.algbw_GBps)},
                      {"busbw_GBps", unless_hung(x, x.busbw_GBps), unless_hung(y, y.busbw_GBps)}};
        row.a_links = coll_links(x);
        row.b_links = coll_links(y);
        finish(row, c.threshold);
        c.rows.push_back(std::move(row));
    }
}

namespace {

Time latency(const CollectiveRun& r) { return r.end - r.last_arrival; }

double busbw_GBps(const CollectiveRun& r) {
    const double us = latency(r).us();
    return us > 0 ? static_cast<double>(r.bytes.count()) / (us * 1e3) * busbw_factor(r.kind, r.ranks) : 0;
}

const CollectiveRun* same_collective(const ReplayReport* rep, const CollectiveRun& x) {
    if (!rep) return nullptr;
    for (const CollectiveRun& y : rep->result->collectives)
        if (y.name == x.name && y.step == x.step && y.group == x.group) return &y;
    return nullptr;
}

void add_collective_rows(Comparison& c, const ReplayReport& a, const ReplayReport* b, std::size_t count) {
    const std::vector<CollectiveRun>& runs = a.result->collectives;
    std::vector<std::size_t> order(runs.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    // The longest first, ties in replay order.
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return latency(runs[x]) > latency(runs[y]); });
    order.resize(std::min(count, order.size()));
    for (std::size_t i : order) {
        const CollectiveRun& x = runs[i];
        const CollectiveRun* y = same_collective(b, x);
        CompareRow row;
        row.key = a.result->steps > 1 ? fmt::format("{}@{}", x.name, x.step + 1) : x.name;
        row.a_us = latency(x).us();
        if (y) row.b_us = latency(*y).us();
        row.a_algo = x.algo + "/" + std::string(to_string(x.proto));
        if (y) row.b_algo = y->algo + "/" + std::string(to_string(y->proto));
        row.values = {{"busbw_GBps", busbw_GBps(x), y ? std::optional(busbw_GBps(*y)) : std::nullopt}};
        finish(row, c.threshold);
        c.rows.push_back(std::move(row));
    }
}

}  // namespace

void add_replay_rows(Comparison& c, const ReplayReport* a, const ReplayReport* b, std::size_t top_links,
                     std::size_t collectives) {
    CompareRow row;
    row.key = "step";
    const auto time = [](const ReplayReport* r) {
        return r ? std::optional(r->metrics.step_time.us()) : std::nullopt;
    };
    row.a_us = time(a);
    row.b_us = time(b);
    const auto share = [](const ReplayReport* r, double Fractions::*f) {
        return r ? std::optional(r->metrics.average.*f) : std::nullopt;
    };
    for (auto [name, field] : {std::pair{"compute", &Fractions::compute}, std::pair{"exposed_comm", &Fractions::exposed_comm},
                               std::pair{"overlapped_comm", &Fractions::overlapped_comm}, std::pair{"idle", &Fractions::idle}})
        row.values.push_back(CompareValue{name, share(a, field), share(b, field), true});
    const auto links = [top_links](const ReplayReport* r) {
        std::vector<CompareLink> out;
        if (!r) return out;
        for (const LinkUsage& l : r->links) {
            if (out.size() == top_links) break;
            out.push_back(CompareLink{l.name, l.average_GBps, l.utilisation});
        }
        return out;
    };
    row.a_links = links(a);
    row.b_links = links(b);
    finish(row, c.threshold);
    c.rows.push_back(std::move(row));
    if (a) add_collective_rows(c, *a, b, collectives);
}

}  // namespace collsim
