// The report of a replay that faults or the watchdog stopped: when, which
// collectives and transfers were stuck, who waited in them and who never
// came, and the dead links that stalled flows wait on.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/report/replay_report.hpp"

namespace collsim {

namespace {
// "0,1,2,... (16 ranks)": long rank lists stay readable.
std::string rank_list(const std::vector<int>& ranks) {
    constexpr std::size_t kShown = 12;
    std::vector<int> head(ranks.begin(), ranks.begin() + static_cast<std::ptrdiff_t>(std::min(kShown, ranks.size())));
    std::string s = fmt::format("{}", fmt::join(head, ","));
    if (ranks.size() > kShown) s += fmt::format(",... ({} ranks)", ranks.size());
    return s;
}
}  // namespace

std::string render_replay_hang(const Topology& topo, const ReplayHang& h, bool json) {
    std::vector<std::string> dead;
    for (ChannelId c : h.dead_channels) dead.push_back(link_name(topo, c));
    if (json) {
        nlohmann::ordered_json stuck = nlohmann::ordered_json::array();
        for (const StuckCommunication& s : h.stuck)
            stuck.push_back({{"name", s.name},
                             {"step", s.step},
                             {"launched", s.launched},
                             {"waiting_ranks", s.waiting},
                             {"missing_ranks", s.missing}});
        nlohmann::ordered_json j;
        j["hang"] = {{"at_us", static_cast<double>(h.at.ps()) / 1e6},
                     {"timed_out", h.timed_out},
                     {"stuck", std::move(stuck)},
                     {"paused_ranks", h.paused_ranks},
                     {"dead_links", dead}};
        return j.dump(2) + "\n";
    }
    std::string out = fmt::format("replay hung at {}: {}\n", format_time(h.at),
                                  h.timed_out ? "the watchdog (--timeout) fired" : "nothing could make progress");
    for (const StuckCommunication& s : h.stuck) {
        if (s.launched)
            out += fmt::format("  {} (step {}): every rank arrived, its transfers cannot finish; waiting: {}\n", s.name,
                               s.step, rank_list(s.waiting));
        else
            out += fmt::format("  {} (step {}): waiting: {}; never arrived: {}\n", s.name, s.step, rank_list(s.waiting),
                               rank_list(s.missing));
    }
    if (!h.paused_ranks.empty()) out += fmt::format("paused for good: ranks {}\n", rank_list(h.paused_ranks));
    out += fmt::format("dead links on stalled flows: {}\n", dead.empty() ? "none" : fmt::format("{}", fmt::join(dead, ", ")));
    return out;
}

}  // namespace collsim
