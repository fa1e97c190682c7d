#include "sim/report/contention.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace collsim {

namespace {
double utilisation(const LinkTraffic& t, Time span) {
    if (span.ps() <= 0 || t.capacity.bps() <= 0) return 0;
    return static_cast<double>(t.bytes.count()) / (static_cast<double>(t.capacity.bps()) * static_cast<double>(span.ps()) * 1e-12);
}
}  // namespace

std::string describe_difference(const Topology& topo, std::string_view tier, Time simulated, Time closed,
                                const std::vector<LinkTraffic>& traffic) {
    const double f = simulated.us(), c = closed.us();
    if (f <= 0 || std::abs(f - c) <= 0.02 * f) return "agree (no contention)";
    const bool slower = f > c;
    // The busiest links by utilisation over the simulated time: where the
    // simulation spent its time that the closed form does not charge (or
    // charges and the simulation did not spend). Slower, only the links that
    // carried several flows at once or ran at least half busy qualify.
    std::vector<const LinkTraffic*> links;
    for (const LinkTraffic& t : traffic)
        if (!slower || t.peak_flows > 1 || utilisation(t, simulated) >= 0.5) links.push_back(&t);
    std::stable_sort(links.begin(), links.end(), [&](const LinkTraffic* a, const LinkTraffic* b) {
        const double ua = utilisation(*a, simulated), ub = utilisation(*b, simulated);
        return ua != ub ? ua > ub : a->channel < b->channel;
    });
    std::string out = slower ? "contention:"
                             : fmt::format("the {} is faster: the schedule overlaps steps (pipeline fill, early starts) "
                                           "that the closed form adds up; busiest links:",
                                           tier == "fluid" ? "fluid tier" : tier);
    for (std::size_t i = 0; i < links.size() && i < 3; ++i)
        out += fmt::format("{} {}->{} carried {} flow{} at once ({:.1f}% busy)", i ? "," : "",
                           topo.device(topo.channel_source(links[i]->channel)).name,
                           topo.device(topo.channel_target(links[i]->channel)).name, links[i]->peak_flows,
                           links[i]->peak_flows == 1 ? "" : "s", 100 * utilisation(*links[i], simulated));
    if (links.empty())
        out += slower ? " flows waited on each other's data longer than the closed form's critical path" : " none";
    return out;
}

}  // namespace collsim
