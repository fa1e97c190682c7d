// JSON rendering of a replay report. Names are stable (scripts and CI read
// them); times are microseconds, bandwidths GB/s (10^9 bytes/s).
#include <nlohmann/json.hpp>

#include "sim/report/replay_report.hpp"

namespace collsim {

namespace {
using nlohmann::ordered_json;

ordered_json fractions(const Fractions& f) {
    return ordered_json{{"compute", f.compute},
                        {"exposed_comm", f.exposed_comm},
                        {"overlapped_comm", f.overlapped_comm},
                        {"idle", f.idle}};
}

ordered_json arrivals(const CollectiveRun& c) {
    ordered_json a = ordered_json::array();
    for (Time t : c.arrivals) a.push_back(t.us());
    return a;
}

ordered_json step_times(const StepTimes& s) {
    return ordered_json{{"p50_us", s.p50.us()}, {"p99_us", s.p99.us()}, {"max_us", s.max.us()}, {"mean_us", s.mean.us()}};
}

// What the model simplified for this call, in words, as `coll`'s JSON says it.
ordered_json reductions(const CollectiveRun& c) {
    ordered_json r = ordered_json::array();
    if (c.bounded)
        r.push_back("channels: " + std::to_string(c.simulated_channels) + " simulated for NCCL's " +
                    std::to_string(c.channels) + ", to bound the schedule");
    if (c.lumped) r.push_back("ring steps lumped, to bound the schedule");
    if (c.fluid) {
        r.push_back("fluid: the steady state as long-lived flows, with the closed form's latencies and fill");
        r.push_back("stream classes: identical streams (same GPUs, channel and bytes) as one flow of their count's "
                    "weight, exact under max-min");
    }
    return r;
}

ordered_json collective(const ReplayReport& rep, const CollectiveRun& c) {
    const Time latency = c.end - c.last_arrival;
    const double algbw = latency.ps() > 0 ? static_cast<double>(c.bytes.count()) / (latency.us() * 1e3) : 0;
    return ordered_json{{"name", c.name},
                        {"step", c.step + 1},
                        {"op", std::string(to_string(c.kind))},
                        {"comm", rep.trace->communicators[c.comm].name},
                        {"group", c.group},
                        {"ranks", c.ranks},
                        {"bytes", c.bytes.count()},
                        {"algo", c.algo},
                        {"proto", std::string(to_string(c.proto))},
                        {"channels", c.channels},
                        {"simulated_channels", c.simulated_channels},
                        {"channels_bounded", c.bounded},
                        {"steps_lumped", c.lumped},
                        {"model", c.algo == "measured" || c.algo == "local" ? "measured" : c.fluid ? "fluid" : "flow"},
                        {"reductions", reductions(c)},
                        {"start_us", c.last_arrival.us()},
                        {"latency_us", latency.us()},
                        {"arrival_skew_us", (c.last_arrival - c.first_arrival).us()},
                        {"last_rank", c.last_rank},
                        {"members", c.members},
                        {"arrivals_us", arrivals(c)},
                        {"busbw_GBps", algbw * busbw_factor(c.kind, c.ranks)}};
}
}  // namespace

std::string render_replay_json(const ReplayReport& rep) {
    const ReplayResult& r = *rep.result;
    const StepMetrics& m = rep.metrics;
    ordered_json j;
    j["trace"] = rep.trace->name;
    j["topology"] = rep.topo->name();
    j["rank_count"] = r.ranks;
    j["steps"] = r.steps;
    j["step_time_us"] = m.step_time.us();
    j["span_us"] = m.span.us();
    j["fractions"] = fractions(m.average);
    j["step_times"] = step_times(rep.steps);
    if (rep.baseline) {
        j["baseline_step_times"] = step_times(*rep.baseline);
        j["throughput_lost_pct"] = throughput_lost_pct(rep);
    }
    const RankBreakdown& worst = m.ranks[static_cast<std::size_t>(m.worst_rank)];
    j["worst_rank"] = ordered_json{{"rank", worst.rank}, {"fractions", fractions(worst.fractions)}};
    ordered_json ranks = ordered_json::array();
    for (const RankBreakdown& b : m.ranks)
        ranks.push_back(ordered_json{{"rank", b.rank},
                                     {"gpu", rep.topo->device(rep.topo->gpus()[static_cast<std::size_t>(b.rank)]).name},
                                     {"compute_us", b.compute.us()},
                                     {"exposed_comm_us", b.exposed_comm.us()},
                                     {"overlapped_comm_us", b.overlapped_comm.us()},
                                     {"idle_us", b.idle.us()},
                                     {"fractions", fractions(b.fractions)}});
    j["ranks"] = std::move(ranks);
    ordered_json colls = ordered_json::array();
    for (const CollectiveRun& c : r.collectives) colls.push_back(collective(rep, c));
    j["collectives"] = std::move(colls);
    if (!rep.trace->unsized.empty()) {
        ordered_json unsized = ordered_json::array();
        for (const UnsizedCall& u : rep.trace->unsized)
            unsized.push_back(ordered_json{{"name", u.name},
                                           {"file", u.where.file},
                                           {"line", u.where.line},
                                           {"column", u.where.column},
                                           {"measured_us", u.measured.us()},
                                           {"reason", u.reason}});
        j["unsized_calls"] = std::move(unsized);
    }
    ordered_json p2p = ordered_json::array();
    for (const P2PRun& p : r.p2p)
        p2p.push_back(ordered_json{{"name", p.name},
                                   {"step", p.step + 1},
                                   {"from", p.from},
                                   {"to", p.to},
                                   {"bytes", p.bytes.count()},
                                   {"start_us", p.start.us()},
                                   {"latency_us", (p.end - p.start).us()},
                                   {"wait_us", (p.start - std::min(p.send_arrival, p.recv_arrival)).us()}});
    j["p2p"] = std::move(p2p);
    ordered_json bubbles = ordered_json::array();
    for (const Bubble& b : rep.bubbles)
        bubbles.push_back(ordered_json{{"rank", b.rank},
                                       {"step", b.step + 1},
                                       {"start_us", b.start.us()},
                                       {"duration_us", (b.end - b.start).us()},
                                       {"cause", std::string(to_string(b.cause))},
                                       {"op", b.op},
                                       {"waited_for", b.waited_for}});
    j["bubbles"] = std::move(bubbles);
    ordered_json links = ordered_json::array();
    for (const LinkUsage& l : rep.links)
        links.push_back(ordered_json{{"link", l.name},
                                     {"bytes", l.bytes.count()},
                                     {"average_GBps", l.average_GBps},
                                     {"utilisation", l.utilisation}});
    j["links"] = std::move(links);
    j["events"] = r.events;
    return j.dump(2) + "\n";
}

}  // namespace collsim
