#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/exec/executor.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/exec/schedule.hpp"
#include "sim/hw/routes.hpp"
#include "sim/hw/routing_policy.hpp"

namespace collsim {

// Why a collective never finished: no step could make progress any more (a
// flow on a dead link, nothing else pending), or the watchdog fired first.
struct HangReport {
    Time at;
    bool timed_out = false;  // the watchdog, not a dead end, stopped it
    std::size_t steps_done = 0, steps_total = 0;
    std::vector<int> waiting_ranks;           // ranks with unfinished steps
    std::vector<ChannelId> dead_channels;     // zero-capacity link directions on stalled flows
    std::size_t stalled_flows = 0;
};

// One link direction's traffic over a schedule (SimulateOptions::link_traffic).
struct LinkTraffic {
    ChannelId channel = 0;
    Bytes bytes;              // carried (with a hang: up to it)
    Bandwidth capacity;       // as simulated: after link efficiency, before any fault acts
    uint32_t peak_flows = 0;  // the most sends on it at once
};

struct ScheduleTiming {
    Time time;                  // from the call to the last step's end (or to the hang)
    uint64_t events = 0;        // engine events processed
    uint64_t rerated_flows = 0; // network re-rating work
    std::optional<HangReport> hang;
    // Per link direction, the most sends in flight at once (when asked for).
    std::vector<uint32_t> peak_link_load;
    // When asked for: every link direction that carried bytes, by channel id.
    std::vector<LinkTraffic> link_traffic;
};

// Sets up anything that acts on the network while the schedule runs (faults);
// `running` says whether the schedule still runs, so periodic actions can stop.
using NetworkSetup = std::function<void(Simulator&, Network&, std::function<bool()> running)>;

struct SimulateOptions {
    LinkEfficiency efficiency = kNominalLinks;  // scales each link by its LinkClass
    NetworkSetup setup;                          // optional
    std::optional<Time> timeout;                 // watchdog, like NCCL's / PyTorch's timeout
    RoutingPolicy routing;                       // which equal-cost path each flow takes
    std::vector<std::vector<DeviceId>> channel_gpus;  // per-channel GPU order (Executor::place_channels)
    bool track_link_load = false;                // fill ScheduleTiming::peak_link_load
    bool link_traffic = false;                   // fill ScheduleTiming::link_traffic
};

// Times one schedule alone on an otherwise idle network.
ScheduleTiming simulate_schedule(const Topology& topo, Routes& routes, const std::vector<DeviceId>& rank_gpus,
                                 const Schedule& schedule, const Protocol& proto, const SimulateOptions& opts = {});

}  // namespace collsim
