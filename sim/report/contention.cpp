#include "sim/report/contention.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace collsim {

std::string describe_difference(const Topology& topo, Time flow, Time closed, const std::vector<uint32_t>& peak) {
    const double f = flow.us(), c = closed.us();
    if (f <= 0 || std::abs(f - c) <= 0.02 * f) return "agree (no contention)";
    if (f < c)
        return "the flow is faster: the schedule overlaps steps (pipeline fill, early starts) that the closed form "
               "adds up";
    std::vector<ChannelId> busy;
    for (ChannelId ch = 0; ch < peak.size(); ++ch)
        if (peak[ch] > 1) busy.push_back(ch);
    std::stable_sort(busy.begin(), busy.end(), [&](ChannelId a, ChannelId b) { return peak[a] > peak[b]; });
    std::string out = "contention:";
    for (std::size_t i = 0; i < busy.size() && i < 3; ++i)
        out += fmt::format("{} {}->{} carried {} flows at once", i ? "," : "",
                           topo.device(topo.channel_source(busy[i])).name,
                           topo.device(topo.channel_target(busy[i])).name, peak[busy[i]]);
    if (busy.empty()) out += " flows waited on each other's data longer than the closed form's critical path";
    return out;
}

}  // namespace collsim
