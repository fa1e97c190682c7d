#pragma once
// Runs a Schedule on the network: a step starts when its dependencies are
// done; a send becomes a flow on a route between the two ranks' GPUs, a
// reduction a flow on the GPU's memory, a copy is free (NCCL writes received
// data straight into the output buffer).
#include <array>
#include <functional>
#include <vector>

#include "sim/core/simulator.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/exec/schedule.hpp"
#include "sim/hw/routes.hpp"
#include "sim/net/network.hpp"

namespace collsim {

// Share of nominal bandwidth that each LinkClass (nvlink, pci, net) delivers.
using LinkEfficiency = std::array<double, 3>;
inline constexpr LinkEfficiency kNominalLinks{1.0, 1.0, 1.0};

// Resource ids for a topology: one per link direction, then one memory port
// per device (only GPUs' are used).
std::vector<Bandwidth> network_resources(const Topology& topo, const LinkEfficiency& efficiency = kNominalLinks);
ResourceId memory_resource(const Topology& topo, DeviceId d);

// A reduction reads both operands and writes the result: 3 bytes of memory
// traffic per byte reduced. NCCL fuses it into the copy loop, so it overlaps
// the transfer of later slots: a reduce step costs only its last pipeline
// slot's reduction (Protocol::pipeline_slot).
constexpr int64_t kReduceMemoryTraffic = 3;

class Executor {
public:
    Executor(Simulator& sim, Network& net, Routes& routes, const Topology& topo, std::vector<DeviceId> rank_gpus,
             Protocol proto);

    // Starts the schedule now; `done` runs when its last step has finished.
    void start(const Schedule& schedule, std::function<void()> done);
    // Called as each step finishes: the order in which data really combined.
    void on_step_finished(std::function<void(StepId)> observer) { observer_ = std::move(observer); }
    // Extra time before each step may start (seeded jitter for run-to-run studies).
    void delay_steps(std::function<Time(StepId)> delay) { delay_ = std::move(delay); }
    std::size_t steps_finished() const { return finished_; }

private:
    void ready(StepId s);
    void begin(StepId s);
    void complete(StepId s);

    Simulator& sim_;
    Network& net_;
    Routes& routes_;
    const Topology& topo_;
    std::vector<DeviceId> rank_gpus_;
    Protocol proto_;

    const Schedule* schedule_ = nullptr;
    std::vector<uint32_t> waiting_on_;
    std::vector<std::vector<StepId>> dependents_;
    std::size_t finished_ = 0;
    std::function<void()> done_;
    std::function<void(StepId)> observer_;
    std::function<Time(StepId)> delay_;
};

}  // namespace collsim
