#include "sim/report/partial_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace collsim {

std::string partial_line(const PartialRun& p) {
    return fmt::format("# partial: stopped by {} after {} of {} {}\n", p.stopped_by, p.done, p.total, p.unit);
}

std::string mark_partial(const std::string& report, const PartialRun& p, bool json) {
    if (!json) return partial_line(p) + report;
    // Parsed and dumped again rather than spliced as text: numbers survive
    // the round trip exactly (nlohmann writes the shortest form that reads
    // back to the same double), and the markers land inside the object.
    const auto body = nlohmann::ordered_json::parse(report);
    nlohmann::ordered_json j;
    j["partial"] = true;
    j["stopped"] = {{"by", p.stopped_by}, {"done", p.done}, {"total", p.total}, {"unit", p.unit}};
    for (const auto& [key, value] : body.items()) j[key] = value;
    return j.dump(2) + "\n";
}

}  // namespace collsim
