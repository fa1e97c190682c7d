#include "sim/report/replay_report.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace collsim {

std::string link_name(const Topology& topo, ChannelId c) {
    return fmt::format("{}->{}", topo.device(topo.channel_source(c)).name, topo.device(topo.channel_target(c)).name);
}

bool between_network_switches(const Topology& topo, ChannelId c) {
    return topo.device(topo.channel_source(c)).kind == DeviceKind::network_switch &&
           topo.device(topo.channel_target(c)).kind == DeviceKind::network_switch;
}

std::vector<LinkUsage> busiest_links(const Topology& topo, const ReplayResult& r, std::size_t top) {
    std::vector<LinkUsage> all;
    const double span_s = static_cast<double>(r.makespan.ps()) / 1e12;
    for (ChannelId c = 0; c < r.carried.size(); ++c) {
        if (r.carried[c].count() == 0) continue;
        LinkUsage u;
        u.channel = c;
        u.name = link_name(topo, c);
        u.bytes = r.carried[c];
        u.average_GBps = span_s > 0 ? static_cast<double>(u.bytes.count()) / span_s / 1e9 : 0;
        u.utilisation = u.average_GBps / topo.link(Topology::link_of(c)).bandwidth.gbps();
        all.push_back(std::move(u));
    }
    std::stable_sort(all.begin(), all.end(), [](const LinkUsage& a, const LinkUsage& b) { return a.bytes > b.bytes; });
    if (all.size() > top) all.resize(top);
    return all;
}

double throughput_lost_pct(const ReplayReport& rep) {
    if (!rep.baseline || rep.steps.mean.ps() == 0) return 0;
    return 100.0 * (1.0 - static_cast<double>(rep.baseline->mean.ps()) / static_cast<double>(rep.steps.mean.ps()));
}

ReplayReport make_replay_report(const Topology& topo, const Trace& trace, const ReplayResult& r,
                                std::size_t top_links) {
    ReplayReport rep;
    rep.topo = &topo;
    rep.trace = &trace;
    rep.result = &r;
    rep.metrics = step_metrics(trace, r);
    rep.bubbles = find_bubbles(trace, r);
    rep.links = busiest_links(topo, r, top_links);
    rep.steps = step_times(trace, r);
    return rep;
}

}  // namespace collsim
