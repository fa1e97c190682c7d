#pragma once
#include <vector>

#include "sim/exec/protocol.hpp"
#include "sim/exec/schedule.hpp"
#include "sim/hw/routes.hpp"

namespace collsim {

struct ScheduleTiming {
    Time time;                  // from the call to the last step's end
    uint64_t events = 0;        // engine events processed
    uint64_t rerated_flows = 0; // network re-rating work
    // Per link direction, the most sends in flight at once (when asked for).
    std::vector<uint32_t> peak_link_load;
};

// Times one schedule alone on an otherwise idle network.
ScheduleTiming simulate_schedule(const Topology& topo, Routes& routes, const std::vector<DeviceId>& rank_gpus,
                                 const Schedule& schedule, const Protocol& proto, bool track_link_load = false);

}  // namespace collsim
