#pragma once
// Flow-level network: each transfer is a flow over a list of resources (link
// directions, GPU memory ports). Resources share bandwidth max-min fairly by
// progressive filling. A flow's last byte arrives `latency` after it leaves,
// so an uncontended flow of S bytes takes latency + S / bottleneck.
//
// When a flow starts or ends, only the flows connected to it through shared
// resources (transitively) are re-rated; the rest of the network is untouched.
// Re-rating waits for the other events of the same instant (no time passes in
// between, so no byte moves at a stale rate): a step that starts a thousand
// flows at once re-rates them once, not a thousand times.
#include <cstdint>
#include <vector>

#include "sim/core/event.hpp"
#include "sim/core/simulator.hpp"
#include "sim/core/units.hpp"

namespace collsim {

using ResourceId = uint32_t;
using FlowId = uint32_t;

class Network {
public:
    Network(Simulator& sim, std::vector<Bandwidth> capacities);

    // Starts a flow now; `on_done` runs when its last byte has arrived, and
    // `on_sent` (if given) when its last byte has left, `latency` earlier.
    // A flow of a `pipeline` (non-zero, from new_pipeline()) is one stage of
    // a pipeline whose stages move at the pace of its slowest (a fluid
    // stream): its end re-rates nothing where only its own pipeline's flows
    // remain, since the stages it shared links with were held back by that
    // slowest stage, not by it. Where another pipeline's flow or a plain flow
    // shares one of its resources, its end re-rates them at once (with the
    // rest of their component, its own pipeline's flows too): that traffic
    // was held back by it.
    // A flow of `weight` w stands for w member flows over the same resources,
    // each carrying `bytes` (a class of equivalent ranks simulated once, an
    // aggregate of like transfers): every resource divides its capacity among
    // members, rate() is a member's, carried() counts all of them. This is
    // exact: max-min gives flows over identical resources identical rates, so
    // w such flows freeze together at the same share, and the progressive
    // filling below removes w x share from each of their resources, as w
    // separate flows would.
    FlowId start_flow(std::vector<ResourceId> resources, Bytes bytes, Time latency, Event on_done,
                      Event on_sent = {}, uint32_t pipeline = 0, uint32_t weight = 1);
    // A pipeline id no flow has used.
    uint32_t new_pipeline() { return ++pipelines_; }

    Bandwidth rate(FlowId f) const { return Bandwidth::bytes_per_s(flows_[f].rate); }
    std::size_t active_flows() const { return active_; }
    // Flow rate computations done so far: a measure of re-rating work.
    uint64_t rerated_flows() const { return rerated_; }
    std::size_t resource_count() const { return capacity_.size(); }
    // Member flows currently sharing a resource (adaptive routing steers by it).
    std::size_t flows_on(ResourceId r) const { return members_on_[r]; }
    Bandwidth capacity(ResourceId r) const { return Bandwidth::bytes_per_s(capacity_[r]); }
    // Changes a resource's capacity now (a fault, a repair); the flows that
    // share it are re-rated. Zero stalls them until capacity returns.
    void set_capacity(ResourceId r, Bandwidth bw);
    // A resource beyond the fixed ones (a limit that lasts one collective,
    // such as a rank's protocol ceiling), and its return once no flow uses
    // it; returned ids are handed out again.
    ResourceId add_resource(Bandwidth bw);
    void remove_resource(ResourceId r);
    // Re-rates now what changed at this instant, instead of after its other
    // events (for reading rates right after starting flows).
    void settle();
    // Flows that cannot progress (rate zero), with their resources: what a
    // hang report shows.
    std::vector<std::vector<ResourceId>> stalled_flows() const;
    // The zero-capacity resources below `limit` (link directions) that
    // stalled flows wait on, in order: the dead links a hang report names.
    std::vector<ResourceId> dead_on_stalled(std::size_t limit) const;
    // Latency added to flows that start on a resource from now on (a degraded link).
    void set_extra_latency(ResourceId r, Time t) { extra_latency_[r] = t; }
    Time extra_latency(const std::vector<ResourceId>& path) const;
    // Bytes carried by a resource so far (for utilisation reports).
    Bytes carried(ResourceId r) const;
    // The same, counting the progress of flows still under way up to now (for
    // sampling utilisation over time without disturbing the flows).
    Bytes carried_now(ResourceId r) const;

private:
    struct Flow {
        std::vector<ResourceId> resources;
        __int128 remaining = 0;  // bytes x 10^12, so progress rate x dt(ps) stays integral
        int64_t rate = 0;        // bytes per second
        Time last_update{};
        Time latency{};
        Event on_done, on_sent;
        EventHandle finish;
        bool active = false;
        uint32_t pipeline = 0;
        uint32_t weight = 1;
    };

    void changed(const std::vector<ResourceId>& touched);
    void join(ResourceId r, FlowId id);
    void leave(ResourceId r, FlowId id);
    bool shared_beyond(const std::vector<ResourceId>& resources, uint32_t pipeline) const;
    void rerate_around(const std::vector<ResourceId>& touched);
    void fill(const std::vector<FlowId>& component, const std::vector<ResourceId>& resources);
    void advance(Flow& f);
    void schedule_finish(FlowId id);
    void finish(FlowId id);

    Simulator& sim_;
    std::vector<int64_t> capacity_;
    std::vector<Time> extra_latency_;
    std::vector<std::vector<FlowId>> on_resource_;
    std::vector<std::size_t> members_on_;  // the weights of on_resource_[r]'s flows, summed
    // Per resource with flows: the pipeline of one of them, and how many of
    // its flows are of that pipeline (so that a pipeline's flow ending can
    // tell in O(1) whether anything else shares the resource).
    std::vector<uint32_t> lead_pipeline_, lead_count_;
    uint32_t pipelines_ = 0;
    std::vector<__int128> carried_;  // bytes x 10^12
    std::vector<Flow> flows_;
    std::vector<FlowId> free_ids_;
    std::vector<ResourceId> free_resources_;
    std::size_t active_ = 0;
    uint64_t rerated_ = 0;
    // Scratch for component search and filling: each flow's and resource's
    // position in the component (kUnmarked outside one), reset after each use.
    static constexpr uint32_t kUnmarked = UINT32_MAX;
    std::vector<uint32_t> flow_slot_, resource_slot_;
    // Resources whose flows changed at this instant, re-rated by one event.
    std::vector<ResourceId> dirty_;
    bool rerate_pending_ = false;
};

}  // namespace collsim
