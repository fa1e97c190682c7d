#include "sim/report/numerics_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace collsim {

namespace {
nlohmann::ordered_json finite_or_null(double x) { return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(); }

nlohmann::ordered_json result_json(const NumericsReport& r, const NumericsResult& res) {
    const auto& q = r.request;
    nlohmann::ordered_json j;
    j["op"] = std::string(to_string(q.op));
    j["algo"] = res.config.algo;
    j["ranks"] = res.config.ranks;
    j["elements"] = q.elements;
    j["dtype"] = std::string(to_string(q.dtype));
    j["accum"] = q.accum ? std::string(to_string(*q.accum)) : "native";
    j["dist"] = std::string(to_string(q.dist));
    j["seed"] = q.seed;
    j["topology"] = res.config.topology.empty() ? "crossbar" : res.config.topology;
    j["contributions_per_rank"] = res.contributions_per_rank;
    // The headline errors first; the elementwise ones after (see ReductionStats).
    j["normwise_rel_error"] = finite_or_null(res.stats.normwise_rel_error);
    j["max_abs_sum_error"] = res.stats.max_abs_sum_error;
    j["max_rel_error"] = res.stats.max_rel_error;
    j["mean_rel_error"] = res.stats.mean_rel_error;
    j["max_ulp"] = res.stats.max_ulp;
    // null when the worst-case bound is infinite ((n-1)u >= 1)
    j["max_bound_ratio"] = finite_or_null(res.stats.max_bound_ratio);
    j["ranks_bitwise_identical"] = res.stats.ranks_bitwise_identical;
    j["runs"] = q.runs;
    j["runs_differing"] = res.runs_differing;
    j["max_run_ulp"] = res.max_run_ulp;
    if (!res.example_order.empty()) j["example_order"] = res.example_order;
    return j;
}
}  // namespace

std::string render_numerics_json(const NumericsReport& r) {
    nlohmann::ordered_json j = result_json(r, r.results.front());
    if (r.results.size() > 1) {
        j["contributions"] = r.contributions;
        j["compare"] = nlohmann::ordered_json::array();
        for (const auto& res : r.results) {
            nlohmann::ordered_json c{{"config", res.label}};
            c.update(result_json(r, res));
            j["compare"].push_back(std::move(c));
        }
        j["pairs"] = nlohmann::ordered_json::array();
        for (const auto& p : r.pairs)
            j["pairs"].push_back({{"a", p.a},
                                  {"b", p.b},
                                  {"bitwise_identical", p.elements_differing == 0},
                                  {"elements_differing", p.elements_differing},
                                  {"max_ulp", p.max_ulp},
                                  {"max_rel_difference", p.max_rel_difference}});
    }
    return j.dump(2) + "\n";
}

std::string render_numerics_table(const NumericsReport& r) {
    const auto& q = r.request;
    std::vector<int> ranks;  // each rank count once, in the order compared
    for (const auto& res : r.results)
        if (std::find(ranks.begin(), ranks.end(), res.config.ranks) == ranks.end()) ranks.push_back(res.config.ranks);
    std::string out = fmt::format("# collsim numerics: {} of {} {} elements over {} ranks, {} inputs, accumulate {}, "
                                  "seed {}, {} run(s)\n",
                                  to_string(q.op), q.elements, to_string(q.dtype), fmt::join(ranks, ", "),
                                  to_string(q.dist), q.accum ? to_string(*q.accum) : "native", q.seed, q.runs);
    if (r.contributions != ranks.front() || ranks.size() > 1)
        out += fmt::format("# every element sums {} contributions; each rank first adds its share in order\n",
                           r.contributions);
    std::size_t width = 10;
    for (const auto& res : r.results) width = std::max(width, res.label.size());
    out += "# normwise err: ||result - exact|| / ||exact||; err/sum|x|: the largest |result - exact| / sum|x| of an "
           "element;\n# max and mean rel err: per element, large where a sum cancels to near zero\n";
    out += fmt::format("# {:>{}}  {:>13}  {:>13}  {:>13}  {:>13}  {:>8}  {:>11}  {:>15}  {:>14}\n", "algo", width,
                       "normwise err", "err/sum|x|", "max rel err", "mean rel err", "max ulp", "bound used",
                       "ranks identical", "runs differing");
    for (const auto& res : r.results) {
        const double b = res.stats.max_bound_ratio;
        out += fmt::format("  {:>{}}  {:>13.6g}  {:>13.6g}  {:>13.6g}  {:>13.6g}  {:>8}  {:>11}  {:>15}  {:>14}\n",
                           res.label, width, res.stats.normwise_rel_error, res.stats.max_abs_sum_error,
                           res.stats.max_rel_error, res.stats.mean_rel_error, res.stats.max_ulp,
                           std::isfinite(b) ? fmt::format("{:.1f}%", 100 * b) : "n/a",
                           res.stats.ranks_bitwise_identical ? "yes" : "no",
                           fmt::format("{} of {}", res.runs_differing, q.runs));
        if (!res.example_order.empty()) out += fmt::format("#   chunk 0 on rank 0 adds {}\n", res.example_order);
    }
    for (const auto& p : r.pairs)
        out += p.elements_differing == 0
                   ? fmt::format("# {} vs {}: bitwise identical\n", p.a, p.b)
                   : fmt::format("# {} vs {}: {} of {} elements differ, by at most {} ulp, {:.6g} relative\n", p.a,
                                 p.b, p.elements_differing, q.elements, p.max_ulp, p.max_rel_difference);
    return out;
}

}  // namespace collsim
