#include "sim/report/numerics_report.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace collsim {

namespace {
nlohmann::ordered_json result_json(const NumericsReport& r, const NumericsResult& res) {
    const auto& q = r.request;
    nlohmann::ordered_json j;
    j["op"] = std::string(to_string(q.op));
    j["algo"] = res.algo;
    j["ranks"] = q.ranks;
    j["elements"] = q.elements;
    j["dtype"] = std::string(to_string(q.dtype));
    j["accum"] = q.accum ? std::string(to_string(*q.accum)) : "native";
    j["dist"] = std::string(to_string(q.dist));
    j["seed"] = q.seed;
    j["max_rel_error"] = res.stats.max_rel_error;
    j["mean_rel_error"] = res.stats.mean_rel_error;
    j["max_ulp"] = res.stats.max_ulp;
    // null when the worst-case bound is infinite ((n-1)u >= 1)
    j["max_bound_ratio"] = std::isfinite(res.stats.max_bound_ratio) ? nlohmann::ordered_json(res.stats.max_bound_ratio)
                                                                    : nlohmann::ordered_json();
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
        j["compare"] = nlohmann::ordered_json::array();
        for (const auto& res : r.results) j["compare"].push_back(result_json(r, res));
        j["pairs"] = nlohmann::ordered_json::array();
        for (const auto& p : r.pairs)
            j["pairs"].push_back({{"a", p.a}, {"b", p.b}, {"elements_differing", p.elements_differing},
                                  {"max_ulp", p.max_ulp}});
    }
    return j.dump(2) + "\n";
}

std::string render_numerics_table(const NumericsReport& r) {
    const auto& q = r.request;
    std::string out = fmt::format("# collsim numerics: {} of {} {} elements over {} ranks, {} inputs, accumulate {}, "
                                  "seed {}, {} run(s)\n",
                                  to_string(q.op), q.elements, to_string(q.dtype), q.ranks, to_string(q.dist),
                                  q.accum ? to_string(*q.accum) : "native", q.seed, q.runs);
    out += fmt::format("# {:>10}  {:>13}  {:>13}  {:>8}  {:>11}  {:>15}  {:>14}\n", "algo", "max rel err",
                       "mean rel err", "max ulp", "bound used", "ranks identical", "runs differing");
    for (const auto& res : r.results) {
        const double b = res.stats.max_bound_ratio;
        out += fmt::format("  {:>10}  {:>13.6g}  {:>13.6g}  {:>8}  {:>11}  {:>15}  {:>14}\n", res.algo,
                           res.stats.max_rel_error, res.stats.mean_rel_error, res.stats.max_ulp,
                           std::isfinite(b) ? fmt::format("{:.1f}%", 100 * b) : "n/a",
                           res.stats.ranks_bitwise_identical ? "yes" : "no",
                           fmt::format("{} of {}", res.runs_differing, q.runs));
        if (!res.example_order.empty()) out += fmt::format("#   chunk 0 on rank 0 adds {}\n", res.example_order);
    }
    for (const auto& p : r.pairs)
        out += fmt::format("# {} vs {}: {} of {} elements differ, by at most {} ulp\n", p.a, p.b,
                           p.elements_differing, q.elements, p.max_ulp);
    return out;
}

}  // namespace collsim
