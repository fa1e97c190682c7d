#pragma once
// The report of a replay: step time, where each rank's time went (average and
// worst rank), every collective and transfer, every bubble with its cause, and
// the busiest links. Rendered as a table for people or as JSON with stable
// names for scripts: {"step_time_us", "ranks", "fractions": {"compute",
// "exposed_comm", "overlapped_comm", "idle"}, "collectives", "bubbles", "links"}.
#include <optional>
#include <string>
#include <vector>

#include "sim/faults/fault_plan.hpp"
#include "sim/hw/topology.hpp"
#include "sim/replay/bubbles.hpp"
#include "sim/replay/replay_result.hpp"
#include "sim/replay/step_metrics.hpp"
#include "sim/replay/step_times.hpp"

namespace collsim {

struct LinkUsage {
    ChannelId channel = 0;
    std::string name;  // "gpu0->nvswitch"
    Bytes bytes;
    double average_GBps = 0;  // over the replay's span
    double utilisation = 0;   // average over the link's nominal bandwidth
};

// Link directions by bytes carried, most first (ties by channel); at most `top`.
std::vector<LinkUsage> busiest_links(const Topology& topo, const ReplayResult& r, std::size_t top);
std::string link_name(const Topology& topo, ChannelId c);
// Whether link direction `c` joins two network switches (a fat-tree's leaf-spine tiers).
bool between_network_switches(const Topology& topo, ChannelId c);

struct ReplayReport {
    const Topology* topo = nullptr;
    const Trace* trace = nullptr;
    const ReplayResult* result = nullptr;
    StepMetrics metrics;
    std::vector<Bubble> bubbles;
    std::vector<LinkUsage> links;
    StepTimes steps;
    std::optional<StepTimes> baseline;  // the same replay without its faults
    const FaultPlan* faults = nullptr;  // the faults it ran with, if any
};

ReplayReport make_replay_report(const Topology& topo, const Trace& trace, const ReplayResult& r,
                                std::size_t top_links);

// `rows` bounds the collectives and bubbles listed (the longest first).
std::string render_replay_table(const ReplayReport& rep, std::size_t rows);
std::string render_replay_json(const ReplayReport& rep);
// One row per rank: its times and shares.
std::string render_replay_csv(const ReplayReport& rep);
// Steps per second lost to the faults, against the baseline (0 without one).
double throughput_lost_pct(const ReplayReport& rep);
// A replay that faults or the watchdog stopped: where, and who waits for what.
std::string render_replay_hang(const Topology& topo, const ReplayHang& h, bool json);

}  // namespace collsim
