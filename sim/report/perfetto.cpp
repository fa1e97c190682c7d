#include "sim/report/perfetto.hpp"

#include <nlohmann/json.hpp>

namespace collsim {

namespace {
using nlohmann::ordered_json;

ordered_json meta(const char* what, int pid, int tid, const std::string& name) {
    ordered_json e{{"ph", "M"}, {"name", what}, {"pid", pid}};
    if (tid >= 0) e["tid"] = tid;
    e["args"] = ordered_json{{"name", name}};
    return e;
}

ordered_json slice(const std::string& name, const char* cat, int pid, uint32_t tid, Time begin, Time end,
                   ordered_json args) {
    return ordered_json{{"ph", "X"},      {"name", name}, {"cat", cat},  {"pid", pid},
                        {"tid", tid},     {"ts", begin.us()}, {"dur", (end - begin).us()}, {"args", std::move(args)}};
}

void rank_tracks(ordered_json& events, const ReplayReport& rep) {
    const Trace& trace = *rep.trace;
    const ReplayResult& r = *rep.result;
    for (int rank = 0; rank < r.ranks; ++rank) {
        const std::string gpu = rep.topo->device(rep.topo->gpus()[static_cast<std::size_t>(rank)]).name;
        events.push_back(meta("process_name", rank, -1, "rank " + std::to_string(rank) + " (" + gpu + ")"));
        events.push_back(ordered_json{{"ph", "M"}, {"name", "process_sort_index"}, {"pid", rank},
                                      {"args", ordered_json{{"sort_index", rank}}}});
        const Program& p = trace.program(rank);
        std::vector<bool> used(trace.streams.size(), false);
        for (const TraceOp& op : p.ops) used[op.stream] = true;
        for (uint32_t s = 0; s < trace.streams.size(); ++s)
            if (used[s]) events.push_back(meta("thread_name", rank, static_cast<int>(s), trace.streams[s]));
        for (int step = 0; step < r.steps; ++step)
            for (OpIndex i = 0; i < p.ops.size(); ++i) {
                const TraceOp& op = p.ops[i];
                const OpTiming& t = r.timings[r.instance(rank, step, i, p.ops.size())];
                ordered_json args{{"step", step + 1}};
                if (op.kind == OpKind::collective) {
                    const CollectiveRun& c = r.collectives[t.run];
                    args["op"] = std::string(to_string(c.kind));
                    args["bytes"] = c.bytes.count();
                    args["comm"] = trace.communicators[c.comm].name;
                    args["algo"] = c.algo + "/" + std::string(to_string(c.proto));
                } else if (op.kind != OpKind::compute) {
                    const P2PRun& x = r.p2p[t.run];
                    args["from"] = x.from;
                    args["to"] = x.to;
                    args["bytes"] = x.bytes.count();
                }
                if (t.ready < t.start)
                    events.push_back(slice("wait: " + op.name, "wait", rank, op.stream, t.ready, t.start, args));
                events.push_back(slice(op.name, std::string(to_string(op.kind)).c_str(), rank, op.stream, t.start,
                                       t.end, std::move(args)));
            }
    }
}

void link_tracks(ordered_json& events, const ReplayReport& rep, std::size_t links) {
    const LinkSamples& s = rep.result->samples;
    if (s.times.size() < 2) return;
    const int pid = rep.result->ranks;
    events.push_back(meta("process_name", pid, -1, "links"));
    events.push_back(ordered_json{{"ph", "M"}, {"name", "process_sort_index"}, {"pid", pid},
                                  {"args", ordered_json{{"sort_index", pid}}}});
    for (std::size_t k = 0; k < std::min(links, rep.links.size()); ++k) {
        const LinkUsage& l = rep.links[k];
        for (std::size_t i = 0; i + 1 < s.times.size(); ++i) {
            const int64_t bytes = s.carried[i + 1][l.channel] - s.carried[i][l.channel];
            const double gbps = static_cast<double>(bytes) / ((s.times[i + 1] - s.times[i]).us() * 1e3);
            events.push_back(ordered_json{{"ph", "C"}, {"name", l.name}, {"pid", pid}, {"ts", s.times[i].us()},
                                          {"args", ordered_json{{"GB/s", gbps}}}});
        }
        events.push_back(ordered_json{{"ph", "C"}, {"name", l.name}, {"pid", pid}, {"ts", s.times.back().us()},
                                      {"args", ordered_json{{"GB/s", 0.0}}}});
    }
}
// One track per fault, a slice over each window it acts in (for a flapping
// link, each time it is down), clipped to the replay's span.
void fault_tracks(ordered_json& events, const ReplayReport& rep) {
    if (!rep.faults || rep.faults->faults.empty()) return;
    constexpr std::size_t kMostFlaps = 10'000;  // a fast flap over a long replay
    const int pid = rep.result->ranks + 1;
    const Time span = rep.result->makespan;
    events.push_back(meta("process_name", pid, -1, "faults"));
    events.push_back(ordered_json{{"ph", "M"}, {"name", "process_sort_index"}, {"pid", pid},
                                  {"args", ordered_json{{"sort_index", pid}}}});
    for (std::size_t k = 0; k < rep.faults->faults.size(); ++k) {
        const Fault& f = rep.faults->faults[k];
        const std::string kind{to_string(f.kind)};
        const auto tid = static_cast<uint32_t>(k);
        events.push_back(meta("thread_name", pid, static_cast<int>(k), kind + " " + f.target));
        const Time end = f.duration ? std::min(span, f.at + *f.duration) : span;
        auto window = [&](Time a, Time b) {
            if (a < b) events.push_back(slice(kind, "fault", pid, tid, a, b, ordered_json{{"target", f.target}}));
        };
        if (f.kind != FaultKind::flap) {
            window(f.at, end);
            continue;
        }
        const Time up = Time::from_ps(static_cast<int64_t>(static_cast<double>(f.period.ps()) * f.duty));
        std::size_t n = 0;
        for (Time t = f.at; t < end && n < kMostFlaps; t += f.period, ++n) window(t + up, std::min(end, t + f.period));
    }
}
}  // namespace

std::string render_perfetto(const ReplayReport& rep, std::size_t links) {
    ordered_json events = ordered_json::array();
    rank_tracks(events, rep);
    link_tracks(events, rep, links);
    fault_tracks(events, rep);
    ordered_json doc{{"displayTimeUnit", "ns"}, {"traceEvents", std::move(events)}};
    return doc.dump() + "\n";
}

}  // namespace collsim
