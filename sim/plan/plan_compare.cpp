#include "sim/plan/plan_compare.hpp"

#include <map>
#include <optional>

#include <fmt/format.h>

namespace collsim {

namespace {

// Short, for the table's "what ran" column; plan's own report has the long form.
std::string layout_name(const Layout& l) {
    std::string s = fmt::format("tp{} pp{} dp{}", l.tp, l.pp, l.dp);
    if (l.cp > 1) s += fmt::format(" cp{}", l.cp);
    if (l.ep > 1) s += fmt::format(" ep{}", l.ep);
    if (l.vpp > 1) s += fmt::format(" vpp{}", l.vpp);
    return s + fmt::format(" mb{}", l.micro_batch);
}

std::optional<double> if_fits(const PlanResult& p, double v) { return p.memory.fits() ? std::optional(v) : std::nullopt; }

std::string verdict(const PlanResult& a, const PlanResult& b, const CompareRow& row, double threshold) {
    if (!a.memory.fits() && !b.memory.fits()) return "neither fits";
    if (!a.memory.fits()) return "A does not fit";
    if (!b.memory.fits()) return "B does not fit";
    return compare_verdict(row.a_us, row.b_us, threshold);
}

void finish(CompareRow& row, const PlanResult& a, const PlanResult& b, double threshold) {
    if (row.a_us && row.b_us && *row.a_us > 0) row.ratio = *row.b_us / *row.a_us;
    row.verdict = verdict(a, b, row, threshold);
}

}  // namespace

void add_plan_rows(Comparison& c, const PlanResult& a, const PlanResult& b) {
    CompareRow step;
    step.key = "step";
    step.a_us = if_fits(a, a.step * 1e6);
    step.b_us = if_fits(b, b.step * 1e6);
    step.a_algo = layout_name(a.layout);
    step.b_algo = layout_name(b.layout);
    const auto gib = [](const PlanResult& p) { return static_cast<double>(p.memory.total()) / (1024.0 * 1024 * 1024); };
    step.values.push_back(CompareValue{"tokens_per_s", if_fits(a, a.tokens_per_s), if_fits(b, b.tokens_per_s)});
    step.values.push_back(CompareValue{"mfu", if_fits(a, a.mfu), if_fits(b, b.mfu), true});
    step.values.push_back(CompareValue{"memory_GiB", gib(a), gib(b)});
    step.values.push_back(CompareValue{"bubble_share", if_fits(a, a.step > 0 ? a.bubble / a.step : 0),
                                       if_fits(b, b.step > 0 ? b.bubble / b.step : 0), true});
    // B/A and the verdict by time per token: layouts of other batch sizes
    // take other step times for the same work.
    CompareRow per_token;
    per_token.a_us = if_fits(a, a.tokens_per_s > 0 ? 1e6 / a.tokens_per_s : 0);
    per_token.b_us = if_fits(b, b.tokens_per_s > 0 ? 1e6 / b.tokens_per_s : 0);
    if (per_token.a_us && per_token.b_us && *per_token.a_us > 0) step.ratio = *per_token.b_us / *per_token.a_us;
    step.verdict = verdict(a, b, per_token, c.threshold);
    c.rows.push_back(std::move(step));
    // Communicators in A's order, then those only B has.
    std::vector<std::string> keys;
    std::map<std::string, std::pair<const CommLine*, const CommLine*>> lines;
    for (const CommLine& l : a.communication) {
        const std::string key = l.group + " " + l.op;
        if (!lines.count(key)) keys.push_back(key);
        lines[key].first = &l;
    }
    for (const CommLine& l : b.communication) {
        const std::string key = l.group + " " + l.op;
        if (!lines.count(key)) keys.push_back(key);
        lines[key].second = &l;
    }
    for (const std::string& key : keys) {
        const auto [la, lb] = lines[key];
        CompareRow row;
        row.key = key + " exposed";
        // A communicator one layout lacks costs it nothing.
        row.a_us = if_fits(a, la ? la->exposed * 1e6 : 0);
        row.b_us = if_fits(b, lb ? lb->exposed * 1e6 : 0);
        row.a_algo = la ? la->algo : "-";
        row.b_algo = lb ? lb->algo : "-";
        row.values.push_back(CompareValue{"overlapped_us", if_fits(a, la ? la->overlapped * 1e6 : 0),
                                          if_fits(b, lb ? lb->overlapped * 1e6 : 0)});
        finish(row, a, b, c.threshold);
        c.rows.push_back(std::move(row));
    }
}

}  // namespace collsim
