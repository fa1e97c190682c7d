#include "sim/faults/replay_timings.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"
#include "sim/core/json_input.hpp"
#include "sim/core/json_places.hpp"

namespace collsim {

namespace {
using nlohmann::json;

const json& field(const json& j, const char* key, const std::string& path, const std::string& name,
                  bool (json::*is)() const, const char* expected) {
    if (!j.contains(key) || !(j.at(key).*is)())
        throw InputError(SourceLocation{name, 0, 0}, path + "." + key, expected,
                         j.contains(key) ? j.at(key).dump() : std::string("nothing"));
    return j.at(key);
}

std::vector<RankTiming> timings_of(const json& doc, const std::string& name) {
    if (doc.contains("hang"))
        throw InputError(SourceLocation{name, 0, 0}, "hang", "a replay that finished",
                         "a hang report: no collective timings to diagnose");
    const json& colls = field(doc, "collectives", "", name, &json::is_array, "the replay's collectives (an array)");
    std::vector<RankTiming> rows;
    for (std::size_t i = 0; i < colls.size(); ++i) {
        const std::string path = fmt::format("collectives[{}]", i);
        const json& c = colls[i];
        const json& members = field(c, "members", path, name, &json::is_array, "the ranks taking part (an array)");
        const json& arrivals = field(c, "arrivals_us", path, name, &json::is_array, "one arrival time per member");
        const double start = field(c, "start_us", path, name, &json::is_number, "a time in microseconds").get<double>();
        const double latency = field(c, "latency_us", path, name, &json::is_number, "a time in microseconds").get<double>();
        if (arrivals.size() != members.size())
            throw InputError(SourceLocation{name, 0, 0}, path + ".arrivals_us",
                             fmt::format("{} times, one per member", members.size()), std::to_string(arrivals.size()));
        for (std::size_t k = 0; k < members.size(); ++k) {
            if (!members[k].is_number_integer() || !arrivals[k].is_number())
                throw InputError(SourceLocation{name, 0, 0}, fmt::format("{}.members[{}]", path, k),
                                 "a rank and its arrival time", members[k].dump() + ", " + arrivals[k].dump());
            rows.push_back(RankTiming{members[k].get<int>(), static_cast<int64_t>(i), arrivals[k].get<double>(),
                                      start + latency});
        }
    }
    if (rows.empty())
        throw InputError(SourceLocation{name, 0, 0}, "collectives", "at least one collective", "none");
    return rows;
}
}  // namespace

std::vector<RankTiming> read_replay_timings(const std::string& text, const std::string& name) {
    const json doc = parse_json_input(text, name, "a replay's JSON report");
    return with_json_places(text, name, [&] { return timings_of(doc, name); });
}

}  // namespace collsim
