#include "sim/report/diagnose_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace collsim {

std::string render_diagnosis_table(const Diagnosis& d) {
    std::string out = fmt::format("# collsim diagnose: {} ranks, {} collectives\n", d.ranks, d.collectives);
    out += fmt::format("# arrival skew (last minus median arrival): median {:.1f} us, p99 {:.1f} us, max {:.1f} us\n",
                       d.median_skew_us, d.p99_skew_us, d.max_skew_us);
    out += d.verdict + "\n";
    if (!d.culprits.empty())
        out += fmt::format("# {:>6}  {:>10}  {:>5}  {:>14}\n", "rank", "confidence", "late", "mean late (us)");
    for (const auto& s : d.culprits)
        out += fmt::format("  {:>6}  {:>10.2f}  {:>5}  {:>14.1f}   {}\n", s.rank, s.confidence, s.late_collectives,
                           s.mean_lateness_us, s.evidence);
    for (const auto& c : d.shared)
        out += fmt::format("# ranks {} share {}: suspect it rather than each rank\n", fmt::join(c.ranks, ", "), c.device);
    constexpr std::size_t kListed = 16;
    for (std::size_t i = 0; i < d.missing.size() && i < kListed; ++i)
        out += fmt::format("# missing: collective {} has no row for rank(s) {}\n",
                           d.missing[i].name.empty() ? std::to_string(d.missing[i].collective) : d.missing[i].name,
                           fmt::join(d.missing[i].ranks, ", "));
    if (d.missing.size() > kListed)
        out += fmt::format("# missing: {} more collective(s) with rows missing (--format json lists them all)\n",
                           d.missing.size() - kListed);
    return out;
}

std::string render_diagnosis_json(const Diagnosis& d) {
    nlohmann::ordered_json j;
    j["ranks"] = d.ranks;
    j["collectives"] = d.collectives;
    j["verdict"] = d.verdict;
    j["skew_us"] = {{"median", d.median_skew_us}, {"p99", d.p99_skew_us}, {"max", d.max_skew_us}};
    j["culprits"] = nlohmann::ordered_json::array();
    for (const auto& s : d.culprits)
        j["culprits"].push_back({{"rank", s.rank},
                                 {"confidence", s.confidence},
                                 {"late_collectives", s.late_collectives},
                                 {"mean_lateness_us", s.mean_lateness_us},
                                 {"mean_sigmas", s.mean_sigmas},
                                 {"evidence", s.evidence}});
    j["shared"] = nlohmann::ordered_json::array();
    for (const auto& c : d.shared) j["shared"].push_back({{"device", c.device}, {"ranks", c.ranks}});
    j["complete"] = d.missing.empty();
    j["missing_rows"] = d.missing_rows;
    j["missing"] = nlohmann::ordered_json::array();
    for (const auto& m : d.missing)
        j["missing"].push_back({{"collective", m.name.empty() ? nlohmann::ordered_json(m.collective)
                                                              : nlohmann::ordered_json(m.name)},
                                {"ranks", m.ranks}});
    return j.dump(2) + "\n";
}

}  // namespace collsim
