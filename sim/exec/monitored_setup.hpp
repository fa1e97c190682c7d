#pragma once
// A run's monitor (progress, --wall-limit) handed to the simulator that
// simulate_schedule makes inside, through the NetworkSetup hook it already
// calls with that simulator before running: callers that time one schedule
// after another (coll's sweep, validate's rows) reach each simulation
// without simulate_schedule or predict_collective knowing about monitors.
#include <utility>

#include "sim/core/run_monitor.hpp"
#include "sim/exec/simulate.hpp"

namespace collsim {

// `setup` (faults, or empty) with the monitor installed first; `setup`
// itself when there is no monitor.
inline NetworkSetup with_monitor(NetworkSetup setup, RunMonitor* monitor) {
    if (!monitor) return setup;
    return [setup = std::move(setup), monitor](Simulator& sim, Network& net, std::function<bool()> running) {
        sim.set_monitor(monitor);
        if (setup) setup(sim, net, std::move(running));
    };
}

}  // namespace collsim
