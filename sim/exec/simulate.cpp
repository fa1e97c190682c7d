#include "sim/exec/simulate.hpp"

#include <set>

namespace collsim {

namespace {
HangReport hang_report(const Simulator& sim, const Network& net, const Executor& exec, const Schedule& s,
                       std::size_t link_channels, bool timed_out) {
    HangReport h;
    h.at = timed_out ? sim.now() : sim.last_event();
    h.timed_out = timed_out;
    h.steps_done = exec.steps_finished();
    h.steps_total = s.steps.size();
    std::set<int> waiting;
    for (StepId i = 0; i < s.steps.size(); ++i)
        if (!exec.finished(i)) waiting.insert(s.steps[i].rank);
    h.waiting_ranks.assign(waiting.begin(), waiting.end());
    h.stalled_flows = net.stalled_flows().size();
    for (ResourceId r : net.dead_on_stalled(link_channels)) h.dead_channels.push_back(r);
    return h;
}

// Per link direction, what it carried, at what capacity, and how many sends
// shared it at most; only the directions that carried anything.
std::vector<LinkTraffic> link_traffic(const Topology& topo, const Network& net, const Executor& exec,
                                      const LinkEfficiency& efficiency) {
    // Capacities before faults changed any: what the link offers when healthy.
    const std::vector<Bandwidth> capacity = network_resources(topo, efficiency);
    const std::vector<uint32_t>& peak = exec.peak_link_load();
    std::vector<LinkTraffic> out;
    for (ChannelId c = 0; c < topo.channel_count(); ++c) {
        const Bytes b = net.carried_now(c);
        if (b.count() > 0) out.push_back(LinkTraffic{c, b, capacity[c], peak.empty() ? 0 : peak[c]});
    }
    return out;
}
}  // namespace

ScheduleTiming simulate_schedule(const Topology& topo, Routes& routes, const std::vector<DeviceId>& rank_gpus,
                                 const Schedule& schedule, const Protocol& proto, const SimulateOptions& opts) {
    Simulator sim;
    Network net(sim, network_resources(topo, opts.efficiency));
    Executor exec(sim, net, routes, topo, rank_gpus, proto, opts.routing);
    if (!opts.channel_gpus.empty()) exec.place_channels(opts.channel_gpus);
    if (opts.track_link_load || opts.link_traffic) exec.track_link_load();
    bool done = false;
    Time end{};
    exec.start(schedule, [&] {
        done = true;
        end = sim.now();
    });
    if (opts.setup) opts.setup(sim, net, [&done] { return !done; });
    if (opts.timeout) {
        sim.run_until(*opts.timeout);
    } else {
        sim.run();
    }
    ScheduleTiming t{done ? end : sim.now(), sim.events_processed(), net.rerated_flows(), std::nullopt,
                     exec.peak_link_load(), {}};
    if (opts.link_traffic) t.link_traffic = link_traffic(topo, net, exec, opts.efficiency);
    if (!done) t.hang = hang_report(sim, net, exec, schedule, topo.channel_count(), opts.timeout.has_value() && sim.pending() > 0);
    return t;
}

}  // namespace collsim
