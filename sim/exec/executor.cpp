#include "sim/exec/executor.hpp"

#include <algorithm>
#include <stdexcept>

namespace collsim {

std::vector<Bandwidth> network_resources(const Topology& topo, const LinkEfficiency& efficiency) {
    std::vector<Bandwidth> caps;
    caps.reserve(topo.channel_count() + topo.devices().size());
    for (const Link& l : topo.links()) {
        const double eff = efficiency[static_cast<std::size_t>(link_class(l.kind))];
        const Bandwidth bw = Bandwidth::bytes_per_s(static_cast<int64_t>(static_cast<double>(l.bandwidth.bps()) * eff));
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
        const Device& d = topo.device(via);
        if (d.kind == DeviceKind::root_complex && d.memory_bandwidth.bps() > 0)
            res.push_back(memory_resource(topo, via));
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

void Executor::start(const Schedule& schedule, std::function<void()> done) {
    if (schedule.ranks != static_cast<int>(rank_gpus_.size()))
        throw std::logic_error("schedule and communicator disagree on the rank count");
    schedule_ = &schedule;
    done_ = std::move(done);
    finished_ = 0;
    const auto n = schedule.steps.size();
    waiting_on_.assign(n, 0);
    dependents_.assign(n, {});
    for (StepId s = 0; s < n; ++s) {
        for (StepId d : schedule.steps[s].deps) {
            if (d >= s) throw std::logic_error("schedule step depends on a later step");
            dependents_[d].push_back(s);
        }
        waiting_on_[s] = static_cast<uint32_t>(schedule.steps[s].deps.size());
    }
    if (n == 0) {
        sim_.schedule_in(proto_.base_latency, [this] { done_(); });
        return;
    }
    // The launch latency is paid once before any step can run.
    sim_.schedule_in(proto_.base_latency, [this] {
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
    const DeviceId gpu = gpu_of(step.channel, step.rank);
    switch (step.kind) {
        case StepKind::send: {
            auto& queue = connection_queue_[connection(step)];
            queue.push_back(s);
            if (queue.size() == 1) send(s);
            break;
        }
        case StepKind::reduce: {
            const Bytes exposed = std::min(step.bytes, proto_.pipeline_slot);
            net_.start_flow({memory_resource(topo_, gpu)}, exposed * kReduceMemoryTraffic, Time{},
                            [this, s] { complete(s); });
            break;
        }
        case StepKind::copy: complete(s); break;
    }
}

void Executor::send(StepId s) {
    const Step& step = schedule_->steps[s];
    const DeviceId gpu = gpu_of(step.channel, step.rank);
    const DeviceId peer = gpu_of(step.channel, step.peer);
    // The channel is the connection (one queue pair per channel and peer, as
    // NCCL opens them): it is the flow id that ECMP hashes.
    Path p = routing_.route(routes_, gpu, peer, static_cast<uint64_t>(step.channel),
                            [this](ChannelId c) { return net_.flows_on(c); });
    std::vector<ResourceId> res = send_resources(topo_, p);
    // Protocol overhead (flags, headers) inflates the bytes on the wire.
    Bytes wire((step.bytes.count() * proto_.payload_den + proto_.payload_num - 1) / proto_.payload_num);
    const Time latency = p.latency + proto_.step_latency(p.link_class) + net_.extra_latency(res);
    // The next send on the connection may leave once this one has left: the
    // connection's buffer slots pipeline the latency, not the bandwidth.
    net_.start_flow(
        std::move(res), wire, latency, [this, s] { complete(s); },
        [this, s] {
            auto& queue = connection_queue_[connection(schedule_->steps[s])];
            queue.pop_front();
            if (!queue.empty()) send(queue.front());
        });
}

void Executor::complete(StepId s) {
    ++finished_;
    waiting_on_[s] = kDone;
    if (observer_) observer_(s);
    for (StepId d : dependents_[s])
        if (--waiting_on_[d] == 0) ready(d);
    // A copy step completes inside the complete() of the step it waited for, so
    // the outer call also sees every step finished: run the callback only once.
    if (finished_ == schedule_->steps.size() && done_) {
        std::function<void()> done = std::move(done_);
        done_ = nullptr;
        done();
    }
}

}  // namespace collsim
