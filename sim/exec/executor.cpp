#include "sim/exec/executor.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/hw/staging.hpp"

namespace collsim {

std::vector<Bandwidth> network_resources(const Topology& topo, const LinkEfficiency& efficiency) {
    std::vector<Bandwidth> caps;
    caps.reserve(topo.channel_count() + topo.devices().size());
    for (const Link& l : topo.links()) {
        const Bandwidth bw = scaled_bandwidth(l.bandwidth, efficiency[static_cast<std::size_t>(link_class(l.kind))]);
        caps.push_back(bw);
        caps.push_back(bw);
    }
    for (const Device& d : topo.devices()) caps.push_back(d.memory_bandwidth);
    return caps;
}

ResourceId memory_resource(const Topology& topo, DeviceId d) {
    return static_cast<ResourceId>(topo.channel_count() + d);
}

std::vector<ResourceId> send_resources(const Topology& topo, const Path& p) {
    std::vector<ResourceId> res(p.channels.begin(), p.channels.end());
    for (std::size_t i = 1; i < p.channels.size(); ++i) {
        const DeviceId via = topo.channel_source(p.channels[i]);
        if (stages_in_host_memory(topo.device(via))) res.push_back(memory_resource(topo, via));
    }
    return res;
}

Executor::Executor(Simulator& sim, Network& net, Routes& routes, const Topology& topo,
                   std::vector<DeviceId> rank_gpus, Protocol proto, RoutingPolicy routing)
    : sim_(sim),
      net_(net),
      routes_(routes),
      topo_(topo),
      rank_gpus_(std::move(rank_gpus)),
      proto_(proto),
      routing_(routing) {}

DeviceId Executor::device_of(int participant, int channel) const {
    const auto n = static_cast<int>(rank_gpus_.size());
    return participant < n ? gpu_of(channel, participant)
                            : schedule_->switches[static_cast<std::size_t>(participant - n)];
}

void Executor::start(const Schedule& schedule, std::function<void()> done) {
    if (schedule.ranks != static_cast<int>(rank_gpus_.size()))
        throw std::logic_error("schedule and communicator disagree on the rank count");
    schedule_ = &schedule;
    pipeline_ = schedule.fluid ? net_.new_pipeline() : 0;
    done_ = std::move(done);
    finished_ = 0;
    const auto n = static_cast<StepId>(schedule.steps.size());
    // Dependents as one flat array (counting sort by dependency), not a vector per step.
    waiting_on_.assign(n, 0);
    dependents_begin_.assign(std::size_t{n} + 1, 0);
    for (StepId s = 0; s < n; ++s) {
        const auto deps = schedule.deps(s);
        waiting_on_[s] = static_cast<uint32_t>(deps.size());
        for (StepId d : deps) ++dependents_begin_[dep_step(d) + 1];
    }
    for (StepId s = 0; s < n; ++s) dependents_begin_[s + 1] += dependents_begin_[s];
    dependents_.assign(schedule.dependency_count(), 0);
    std::vector<uint32_t> fill(dependents_begin_.begin(), dependents_begin_.end() - 1);
    for (StepId s = 0; s < n; ++s)
        for (StepId d : schedule.deps(s)) dependents_[fill[dep_step(d)]++] = s | (d & kAfterSent);

    // The launch latency is paid once before any step can run.
    sim_.schedule_in(proto_.base_latency + schedule.handshakes + schedule.fill, [this] {
        if (schedule_->steps.empty()) {
            return_ceilings();
            done_();
            return;
        }
        for (StepId s = 0; s < schedule_->steps.size(); ++s)
            if (waiting_on_[s] == 0) ready(s);
    });
}

void Executor::ready(StepId s) {
    const Time delay = delay_ ? delay_(s) : Time{};
    if (delay > Time{})
        sim_.schedule_in(delay, [this, s] { begin(s); });
    else
        begin(s);
}

uint64_t Executor::connection(const Step& s) {
    return (static_cast<uint64_t>(s.rank) << 40) ^ (static_cast<uint64_t>(s.peer) << 16) ^ static_cast<uint64_t>(s.channel);
}

void Executor::begin(StepId s) {
    const Step& step = schedule_->steps[s];
    const DeviceId dev = device_of(step.rank, step.channel);
    const bool on_gpu = step.rank < schedule_->ranks;
    switch (step.kind) {
        case StepKind::send: {
            // Fluid streams are the connection's steady state, not its sends
            // one after another: they run side by side.
            if (step.fluid()) {
                send(s);
                break;
            }
            auto& queue = connection_queue_[connection(step)];
            const bool idle = queue.empty();
            queue.push(s);
            if (idle) send(s);
            break;
        }
        // A switch reduces at its ports' line rate (NVLink SHARP, InfiniBand
        // SHARP): the bytes were already charged on the links into the switch,
        // so the reduction itself adds no time.
        case StepKind::reduce:
            if (!on_gpu) {
                complete(s);
                break;
            }
            net_.start_flow({memory_resource(topo_, dev)}, exposed_reduction(step.bytes, proto_) * kReduceMemoryTraffic,
                            Time{}, [this, s] { complete(s); });
            break;
        case StepKind::local_copy:
        case StepKind::local_reduce:
            if (!on_gpu) {
                complete(s);
                break;
            }
            net_.start_flow({memory_resource(topo_, dev)},
                            step.bytes * (step.kind == StepKind::local_copy ? kCopyMemoryTraffic : kReduceMemoryTraffic),
                            Time{}, [this, s] { complete(s); }, {}, schedule_->fluid ? pipeline_ : 0);
            break;
        case StepKind::copy: complete(s); break;
    }
}

void Executor::send(StepId s) {
    const Step& step = schedule_->steps[s];
    // The channel is the connection (one queue pair per channel and peer, as
    // NCCL opens them): it is the flow id that ECMP hashes.
    const DeviceId from = device_of(step.rank, step.channel), to = device_of(step.peer, step.channel);
    if (!paths_) {
        own_paths_ = std::make_unique<SendPaths>(topo_, routes_, routing_);
        paths_ = own_paths_.get();
    }
    const SendPaths::Send p = paths_->find(from, to, static_cast<uint64_t>(step.channel),
                                           [this](ChannelId c) { return net_.flows_on(c); });
    const bool via_switch = reduces_in_nvswitch(topo_.device(from)) || reduces_in_nvswitch(topo_.device(to));
    std::vector<ResourceId> res(p.resources.begin(), p.resources.end());
    if (proto_.rank_ceiling.bps() > 0) res.push_back(channel_ceiling(from, step.channel));
    // A fault's added latency is paid by fluid streams too: it is not in the fill.
    Time latency = (step.fluid() ? Time{} : step_latency(p.path, proto_, step.pays_hop_latency())) + net_.extra_latency(res);
    if (schedule_->latency_scale != 1.0)
        latency = Time::from_ps(std::llround(static_cast<double>(latency.ps()) * schedule_->latency_scale));
    if (!peak_.empty()) count_load(s, p.resources.first(p.channels));
    // The flow ends when the last byte has left; it arrives after the latency.
    net_.start_flow(
        std::move(res), wire_bytes(step.bytes, proto_, via_switch), Time{},
        [this, s, latency] {
            sent(s);
            sim_.schedule_in(latency, [this, s] { complete(s); });
        },
        {}, step.fluid() ? pipeline_ : 0);
}

// A send's bytes have left: its connection takes the next send, and what
// waits only for the sending goes ahead.
void Executor::sent(StepId s) {
    if (!peak_.empty()) count_load(s, {});
    if (!schedule_->steps[s].fluid()) {
        auto& queue = connection_queue_[connection(schedule_->steps[s])];
        queue.pop();
        if (!queue.empty()) send(queue.front());
    }
    release(s, true);
}

// Adds a send's links to the in-flight counts (or, given none, removes them).
void Executor::count_load(StepId s, std::span<const ChannelId> channels) {
    if (in_flight_.size() != peak_.size()) in_flight_.assign(peak_.size(), 0);
    if (load_slot_of_.size() != schedule_->steps.size()) load_slot_of_.assign(schedule_->steps.size(), kNoLoadSlot);
    uint32_t& slot = load_slot_of_[s];
    if (channels.empty()) {
        if (slot == kNoLoadSlot) return;
        for (ChannelId c : load_slots_[slot]) --in_flight_[c];
        free_load_slots_.push_back(slot);
        slot = kNoLoadSlot;
        return;
    }
    for (ChannelId c : channels) peak_[c] = std::max(peak_[c], ++in_flight_[c]);
    if (free_load_slots_.empty()) {
        slot = static_cast<uint32_t>(load_slots_.size());
        load_slots_.emplace_back();
    } else {
        slot = free_load_slots_.back();
        free_load_slots_.pop_back();
    }
    load_slots_[slot].assign(channels.begin(), channels.end());
}

// Releases the dependents waiting for step s to be sent (sent = true) or
// finished (sent = false; for a step that is not a send, both at once).
void Executor::release(StepId s, bool sent) {
    const bool is_send = schedule_->steps[s].kind == StepKind::send;
    for (uint32_t i = dependents_begin_[s]; i < dependents_begin_[s + 1]; ++i) {
        const StepId d = dependents_[i];
        if (is_send && dep_on_sent(d) != sent) continue;
        if (--waiting_on_[dep_step(d)] == 0) ready(dep_step(d));
    }
}

// A channel is one thread block on each GPU, and NCCL's per-protocol caps
// hold each channel's throughput (Protocol::rank_ceiling is a GPU's channels
// together): a block's sends to all its peers share its cap, and a block
// stalled on a slow link lends nothing to another channel. (Measured trees
// agree: holding each connection apart instead predicts 2-node trees 5-10%
// too fast.)
ResourceId Executor::channel_ceiling(DeviceId gpu, int channel) {
    const auto channels = static_cast<std::size_t>(std::max(schedule_->channels, 1));
    if (ceiling_.empty()) ceiling_.assign(topo_.devices().size() * channels, kNoCeiling);
    ResourceId& r = ceiling_[gpu * channels + static_cast<std::size_t>(channel) % channels];
    if (r == kNoCeiling) {
        r = net_.add_resource(Bandwidth::bytes_per_s(proto_.wire_ceiling().bps() / static_cast<int64_t>(channels)));
        ceilings_made_.push_back(r);
    }
    return r;
}

void Executor::return_ceilings() {
    for (ResourceId r : ceilings_made_) net_.remove_resource(r);
    ceilings_made_.clear();
    ceiling_.clear();
}

void Executor::complete(StepId s) {
    ++finished_;
    waiting_on_[s] = kDone;
    if (observer_) observer_(s);
    release(s, false);
    // A copy step completes inside the complete() of the step it waited for, so
    // the outer call also sees every step finished: run the callback only once.
    if (finished_ == schedule_->steps.size() && done_) {
        return_ceilings();
        std::function<void()> done = std::move(done_);
        done_ = nullptr;
        done();
    }
}

}  // namespace collsim
