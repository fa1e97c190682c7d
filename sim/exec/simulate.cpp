#include "sim/exec/simulate.hpp"

#include <stdexcept>

#include "sim/exec/executor.hpp"

namespace collsim {

ScheduleTiming simulate_schedule(const Topology& topo, Routes& routes, const std::vector<DeviceId>& rank_gpus,
                                 const Schedule& schedule, const Protocol& proto,
                                 const LinkEfficiency& efficiency, const RoutingPolicy& routing) {
    Simulator sim;
    Network net(sim, network_resources(topo, efficiency));
    Executor exec(sim, net, routes, topo, rank_gpus, proto, routing);
    bool done = false;
    Time end{};
    exec.start(schedule, [&] {
        done = true;
        end = sim.now();
    });
    sim.run();
    if (!done)
        throw std::logic_error("schedule stalled: " + std::to_string(exec.steps_finished()) + " of " +
                               std::to_string(schedule.steps.size()) + " steps finished");
    return ScheduleTiming{end, sim.events_processed(), net.rerated_flows()};
}

}  // namespace collsim
