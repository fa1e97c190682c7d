#pragma once
// Runs a Schedule on the network: a step starts when its dependencies are
// done (and, for a send, when the previous send on its connection has left);
// a send becomes a flow on a route between the two participants' devices, a
// reduction on a GPU a flow on the GPU's memory, a local copy a smaller one;
// receiving into place is free (NCCL writes received data straight into the
// output buffer), and so is a reduction inside a switch (see executor.cpp).
#include <array>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "sim/core/simulator.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/exec/schedule.hpp"
#include "sim/exec/send_paths.hpp"
#include "sim/exec/step_costs.hpp"
#include "sim/hw/routes.hpp"
#include "sim/net/network.hpp"
#include "sim/hw/routing_policy.hpp"

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
    // Looks up routes in `paths` (shared by the executors of one network,
    // e.g. a replay's), routing as it does, instead of in a cache of its own.
    void share_paths(SendPaths& paths) {
        paths_ = &paths;
        routing_ = paths.routing();
    }
    std::size_t steps_finished() const { return finished_; }
    bool finished(StepId s) const { return waiting_on_[s] == kDone; }
    // Counts, per link direction, the most sends in flight at once (for
    // explaining contention); off unless asked for before start().
    void track_link_load() { peak_.assign(topo_.channel_count(), 0); }
    const std::vector<uint32_t>& peak_link_load() const { return peak_; }

private:
    DeviceId device_of(int participant, int channel) const;
    void ready(StepId s);
    void begin(StepId s);
    void send(StepId s);
    void sent(StepId s);
    void release(StepId s, bool sent);
    void complete(StepId s);
    ResourceId channel_ceiling(DeviceId gpu, int channel);
    void return_ceilings();
    void count_load(StepId s, std::span<const ChannelId> channels);
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
    SendPaths* paths_ = nullptr;  // shared, or own_paths_ (made at the first send)
    std::unique_ptr<SendPaths> own_paths_;

    static constexpr uint32_t kDone = UINT32_MAX;
    const Schedule* schedule_ = nullptr;
    uint32_t pipeline_ = 0;  // the network's pipeline id of a fluid schedule's streams
    std::vector<uint32_t> waiting_on_;
    // Dependents of step s: dependents_[dependents_begin_[s] .. dependents_begin_[s+1]),
    // marked with kAfterSent where they wait only for s to be sent.
    std::vector<uint32_t> dependents_begin_;
    std::vector<StepId> dependents_;
    std::size_t finished_ = 0;
    std::function<void()> done_;
    std::function<void(StepId)> observer_;
    std::function<Time(StepId)> delay_;
    // Sends waiting for their connection (sender, peer, channel): NCCL moves the
    // data of one connection through one FIFO of buffer slots, so a send does
    // not overtake or share bandwidth with the one before it; it starts once
    // the one before has left (not arrived: the slots keep several in flight).
    // A FIFO that keeps its storage when it empties (most connections hold
    // one send at a time: no allocation per send).
    struct Fifo {
        std::vector<StepId> items;
        std::size_t head = 0;
        bool empty() const { return head == items.size(); }
        void push(StepId s) { items.push_back(s); }
        StepId front() const { return items[head]; }
        void pop() {
            if (++head == items.size()) items.clear(), head = 0;
        }
    };
    struct ConnectionHash {
        std::size_t operator()(uint64_t k) const { return static_cast<std::size_t>(k * 0x9e3779b97f4a7c15ULL >> 17); }
    };
    std::unordered_map<uint64_t, Fifo, ConnectionHash> connection_queue_;
    std::vector<uint32_t> peak_, in_flight_;
    // Per device and channel (device x channels + channel), the resource that
    // holds a GPU's sends to the channel's share of Protocol::rank_ceiling,
    // made at its first send; the ones made, returned to the network when the
    // schedule ends.
    static constexpr ResourceId kNoCeiling = UINT32_MAX;
    std::vector<ResourceId> ceiling_, ceilings_made_;
    // With track_link_load: the links of each send in flight, in slots reused
    // as sends leave (no allocation per send once warm); a step's slot.
    static constexpr uint32_t kNoLoadSlot = UINT32_MAX;
    std::vector<std::vector<ChannelId>> load_slots_;
    std::vector<uint32_t> free_load_slots_, load_slot_of_;
};

}  // namespace collsim
