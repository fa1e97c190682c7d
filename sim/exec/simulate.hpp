#pragma once
#include <vector>

#include "sim/exec/executor.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/exec/schedule.hpp"
#include "sim/hw/routes.hpp"
#include "sim/net/routing_policy.hpp"

namespace collsim {

struct ScheduleTiming {
    Time time;                  // from the call to the last step's end
    uint64_t events = 0;        // engine events processed
    uint64_t rerated_flows = 0; // network re-rating work
};

// Times one schedule alone on an otherwise idle network. `efficiency` scales
// each link's bandwidth by its LinkClass (nvlink, pci, net).
ScheduleTiming simulate_schedule(const Topology& topo, Routes& routes, const std::vector<DeviceId>& rank_gpus,
                                 const Schedule& schedule, const Protocol& proto,
                                 const LinkEfficiency& efficiency = kNominalLinks,
                                 const RoutingPolicy& routing = RoutingPolicy{});

}  // namespace collsim
