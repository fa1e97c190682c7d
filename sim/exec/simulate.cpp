#include "sim/exec/simulate.hpp"

#include <stdexcept>

#include "sim/exec/executor.hpp"

namespace collsim {

ScheduleTiming simulate_schedule(const Topology& topo, Routes& routes, const std::vector<DeviceId>& rank_gpus,
                                 const Schedule& schedule, const Protocol& proto, bool track_link_load) {
    Simulator sim;
    Network net(sim, network_resources(topo));
    Executor exec(sim, net, routes, topo, rank_gpus, proto);
    if (track_link_load) exec.track_link_load();
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
    return ScheduleTiming{end, sim.events_processed(), net.rerated_flows(), exec.peak_link_load()};
}

}  // namespace collsim
