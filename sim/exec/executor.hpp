#pragma once
// Runs a Schedule on the network: a step starts when its dependencies are
// done (and, for a send, when the previous send on its connection is done); a
// send becomes a flow on a route between the two ranks' GPUs, a
// reduction a flow on the GPU's memory, a copy is free (NCCL writes received
// data straight into the output buffer).
#include <array>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

#include "sim/core/simulator.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/exec/schedule.hpp"
#include "sim/hw/routes.hpp"
#include "sim/net/network.hpp"
#include "sim/net/routing_policy.hpp"

namespace collsim {

// Share of nominal bandwidth that each LinkClass (nvlink, pci, net) delivers.
using LinkEfficiency = std::array<double, 3>;
inline constexpr LinkEfficiency kNominalLinks{1.0, 1.0, 1.0};

// Resource ids for a topology: one per link direction, then one memory port
// per device (only GPUs' are used).
std::vector<Bandwidth> network_resources(const Topology& topo, const LinkEfficiency& efficiency = kNominalLinks);
ResourceId memory_resource(const Topology& topo, DeviceId d);
// What a send on `p` occupies: its link directions, and the memory of every
// root complex on the way that stages traffic through host memory (no P2P).
std::vector<ResourceId> send_resources(const Topology& topo, const Path& p);

// A reduction reads both operands and writes the result: 3 bytes of memory
// traffic per byte reduced. NCCL fuses it into the copy loop, so it overlaps
// the transfer of later slots: a reduce step costs only its last pipeline
// slot's reduction (Protocol::pipeline_slot).
constexpr int64_t kReduceMemoryTraffic = 3;

class Executor {
public:
    Executor(Simulator& sim, Network& net, Routes& routes, const Topology& topo, std::vector<DeviceId> rank_gpus,
             Protocol proto, RoutingPolicy routing = {});

    // Starts the schedule now; `done` runs when its last step has finished.
    void start(const Schedule& schedule, std::function<void()> done);
    // Which GPU plays each rank on each channel (channel c uses entry c modulo
    // the count). NCCL lays out every channel's ring or tree over its own GPU
    // order, so that different channels leave a node through different NICs;
    // channels are independent collectives on their own share of the data, so
    // a per-channel order only moves where each step runs.
    void place_channels(std::vector<std::vector<DeviceId>> per_channel) { channel_gpus_ = std::move(per_channel); }
    // Called as each step finishes: the order in which data really combined.
    void on_step_finished(std::function<void(StepId)> observer) { observer_ = std::move(observer); }
    // Extra time before each step may start (seeded jitter for run-to-run studies).
    void delay_steps(std::function<Time(StepId)> delay) { delay_ = std::move(delay); }
    std::size_t steps_finished() const { return finished_; }
    bool finished(StepId s) const { return waiting_on_[s] == kDone; }

private:
    void ready(StepId s);
    void begin(StepId s);
    void send(StepId s);
    void complete(StepId s);
    static uint64_t connection(const Step& s);
    DeviceId gpu_of(int channel, int rank) const {
        const auto& gpus = channel_gpus_.empty() ? rank_gpus_
                                                 : channel_gpus_[static_cast<std::size_t>(channel) % channel_gpus_.size()];
        return gpus[static_cast<std::size_t>(rank)];
    }

    Simulator& sim_;
    Network& net_;
    Routes& routes_;
    const Topology& topo_;
    std::vector<DeviceId> rank_gpus_;
    std::vector<std::vector<DeviceId>> channel_gpus_;
    Protocol proto_;
    RoutingPolicy routing_;

    static constexpr uint32_t kDone = UINT32_MAX;
    const Schedule* schedule_ = nullptr;
    std::vector<uint32_t> waiting_on_;
    std::vector<std::vector<StepId>> dependents_;
    std::size_t finished_ = 0;
    std::function<void()> done_;
    std::function<void(StepId)> observer_;
    std::function<Time(StepId)> delay_;
    // Sends waiting for their connection (rank, peer, channel): NCCL moves the
    // data of one connection through one FIFO of buffer slots, so a send does
    // not overtake or share bandwidth with the one before it.
    std::unordered_map<uint64_t, std::deque<StepId>> connection_queue_;
};

}  // namespace collsim
