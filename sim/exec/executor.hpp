#pragma once
// Runs a Schedule on the network: a step starts when its dependencies are
// done; a send becomes a flow on a route between the two participants'
// devices, a reduction on a GPU a flow on the GPU's memory, a local copy a
// smaller one; receiving into place is free (NCCL writes received data straight
// into the output buffer), and so is a reduction inside a switch (see below).
#include <functional>
#include <map>
#include <vector>

#include "sim/core/simulator.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/exec/schedule.hpp"
#include "sim/exec/step_costs.hpp"
#include "sim/hw/routes.hpp"
#include "sim/net/network.hpp"

namespace collsim {

// Resource ids for a topology: one per link direction, then one memory port
// per device (only GPUs' are used).
std::vector<Bandwidth> network_resources(const Topology& topo);
ResourceId memory_resource(const Topology& topo, DeviceId d);

class Executor {
public:
    Executor(Simulator& sim, Network& net, Routes& routes, const Topology& topo, std::vector<DeviceId> rank_gpus,
             Protocol proto);

    // Starts the schedule now; `done` runs when its last step has finished.
    void start(const Schedule& schedule, std::function<void()> done);
    std::size_t steps_finished() const { return finished_; }
    // Counts, per link direction, the most sends in flight at once (for
    // explaining contention); off unless asked for before start().
    void track_link_load() { peak_.assign(topo_.channel_count(), 0); }
    const std::vector<uint32_t>& peak_link_load() const { return peak_; }

private:
    DeviceId device_of(int participant) const;
    void ready(StepId s);
    void release(StepId s, bool sent);
    void count_load(StepId s, const std::vector<ChannelId>& channels);
    void complete(StepId s);

    Simulator& sim_;
    Network& net_;
    Routes& routes_;
    const Topology& topo_;
    std::vector<DeviceId> rank_gpus_;
    Protocol proto_;

    const Schedule* schedule_ = nullptr;
    std::vector<uint32_t> waiting_on_;
    // Dependents of step s: dependents_[dependents_begin_[s] .. dependents_begin_[s+1]),
    // marked with kAfterSent where they wait only for s to be sent.
    std::vector<uint32_t> dependents_begin_;
    std::vector<StepId> dependents_;
    std::size_t finished_ = 0;
    std::function<void()> done_;
    std::vector<uint32_t> peak_, in_flight_;
    std::map<StepId, std::vector<ChannelId>> tracked_;
};

}  // namespace collsim
