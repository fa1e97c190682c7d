#include "sim/replay/replayer.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "sim/faults/compute_faults.hpp"
#include "sim/faults/link_faults.hpp"
#include "sim/faults/link_stragglers.hpp"
#include "sim/replay/comm_launcher.hpp"
#include "sim/replay/deadlock.hpp"
#include "sim/replay/compute_cost.hpp"
#include "sim/replay/link_sampler.hpp"
#include "sim/replay/program_plan.hpp"
#include "sim/replay/replay_tier.hpp"

namespace collsim {

namespace {

struct Member {
    int rank = 0, step = 0;
    OpIndex op = 0;
};

class Replayer {
public:
    Replayer(const Topology& topo, const Trace& trace, const ReplayOptions& opts);
    ReplayResult run();

private:
    struct Rank {
        const Program* program = nullptr;
        const ProgramPlan* plan = nullptr;
        std::vector<uint32_t> p2p_index;                  // per op: position among transfers to/from the same peer
        std::map<std::pair<int, bool>, uint32_t> p2p_per_step;  // (peer, is send) -> transfers per step
    };
    struct PendingCollective {
        std::vector<Member> members;  // by position in the group
        std::vector<uint8_t> present;
        std::size_t arrived = 0;
        Time first, last;
        int last_rank = 0;
    };
    struct PendingP2P {
        std::optional<Member> send, recv;
    };

    InstanceId instance(const Member& m) const {
        return result_.instance(m.rank, m.step, m.op, ranks_[static_cast<std::size_t>(m.rank)].program->ops.size());
    }
    const TraceOp& op_of(const Member& m) const { return ranks_[static_cast<std::size_t>(m.rank)].program->ops[m.op]; }
    void release(const Member& m, InstanceId by);
    void ready(const Member& m);
    void complete(const Member& m);
    void arrive_collective(const Member& m);
    void launch_collective(PendingCollective&& p, uint32_t comm, uint32_t group, int step);
    void arrive_p2p(const Member& m);
    void launch_p2p(const Member& send, const Member& recv);
    void finish_run(std::vector<Member> members);
    void index_p2p(int r);
    bool progressing() const;
    ReplayHang hang_report(bool timed_out) const;

    const Topology& topo_;
    const Trace& trace_;
    ReplayOptions opts_;
    std::vector<DeviceId> gpus_;
    Simulator sim_;
    Routes routes_;
    Network net_;
    CommLauncher launcher_;
    ComputeCoster coster_;
    std::map<const Program*, ProgramPlan> plans_;
    std::vector<Rank> ranks_;
    std::vector<uint32_t> waiting_;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, PendingCollective> collectives_;
    std::map<std::tuple<int, int, uint32_t>, PendingP2P> p2p_;
    std::size_t outstanding_ = 0;
    std::optional<ComputeFaults> compute_faults_;
    std::optional<LinkStragglers> link_stragglers_;
    std::map<uint32_t, std::vector<Member>> running_collectives_, running_p2p_;  // by run
    std::vector<int> paused_;  // ranks held by a pause without an end
    Time last_progress_{};
    ReplayResult result_;
};

std::vector<DeviceId> rank_gpus(const Topology& topo, const Trace& trace) {
    if (trace.ranks > static_cast<int>(topo.gpus().size()))
        throw InputError(trace.ranks_where.line > 0 ? trace.ranks_where : SourceLocation{trace.source, 0, 0}, "ranks",
                         fmt::format("at most {} ranks (the GPUs of topology '{}')", topo.gpus().size(), topo.name()),
                         std::to_string(trace.ranks));
    return {topo.gpus().begin(), topo.gpus().begin() + trace.ranks};
}

GpuArch first_arch(const Topology& topo, const std::vector<DeviceId>& gpus) {
    return gpus.empty() ? GpuArch::unknown : topo.device(gpus[0]).arch;
}

Replayer::Replayer(const Topology& topo, const Trace& trace, const ReplayOptions& opts)
    : topo_(topo), trace_(trace), opts_(opts), gpus_(rank_gpus(topo, trace)), routes_(topo),
      net_(sim_, network_resources(topo, collective_link_efficiency(first_arch(topo, gpus_), opts.calibration))),
      launcher_(sim_, net_, routes_, topo, opts_.calibration, opts.max_schedule_steps, opts.algo, opts.proto,
                opts.disabled, opts.enabled, replay_tier(trace, opts.model, opts.steps),
                opts.stream_classes), coster_(trace, topo, gpus_) {
    result_.ranks = trace.ranks;
    result_.steps = opts.steps;
    ranks_.resize(static_cast<std::size_t>(trace.ranks));
    InstanceId next = 0;
    for (int r = 0; r < trace.ranks; ++r) {
        Rank& rank = ranks_[static_cast<std::size_t>(r)];
        rank.program = &trace.program(r);
        auto it = plans_.find(rank.program);
        if (it == plans_.end())
            it = plans_.emplace(rank.program, plan_program(*rank.program, trace.streams.size(),
                                                           trace.communicators.size())).first;
        rank.plan = &it->second;
        index_p2p(r);
        result_.first_instance.push_back(next);
        next += static_cast<InstanceId>(rank.program->ops.size() * static_cast<std::size_t>(opts.steps));
    }
    if (opts.faults) {
        apply_link_faults(*opts.faults, sim_, net_, [this] { return progressing(); });
        compute_faults_.emplace(*opts.faults, gpus_, opts.seed);
        link_stragglers_.emplace(*opts.faults, opts.seed);
    }
    result_.timings.resize(next);
    waiting_.resize(next);
    outstanding_ = next;
    for (int r = 0; r < trace.ranks; ++r) {
        const Rank& rank = ranks_[static_cast<std::size_t>(r)];
        for (int s = 0; s < opts.steps; ++s)
            for (OpIndex i = 0; i < rank.program->ops.size(); ++i)
                waiting_[instance({r, s, i})] = static_cast<uint32_t>(rank.program->ops[i].after.size()) +
                                                (rank.plan->has_stream_prev[i] || s > 0 ? 1 : 0);
    }
}

void Replayer::index_p2p(int r) {
    Rank& rank = ranks_[static_cast<std::size_t>(r)];
    rank.p2p_index.assign(rank.program->ops.size(), 0);
    for (OpIndex i = 0; i < rank.program->ops.size(); ++i) {
        const TraceOp& op = rank.program->ops[i];
        if (op.kind != OpKind::send && op.kind != OpKind::recv) continue;
        rank.p2p_index[i] = rank.p2p_per_step[{p2p_peer(trace_, r, op.p2p), op.kind == OpKind::send}]++;
    }
}

ReplayResult Replayer::run() {
    std::unique_ptr<LinkSampler> sampler;
    if (opts_.sample_links) sampler = std::make_unique<LinkSampler>(sim_, net_, topo_.channel_count(), outstanding_);
    for (int r = 0; r < trace_.ranks; ++r)
        for (OpIndex i = 0; i < ranks_[static_cast<std::size_t>(r)].program->ops.size(); ++i)
            if (waiting_[instance({r, 0, i})] == 0) ready({r, 0, i});
    sim_.set_monitor(opts_.monitor);
    if (opts_.timeout)
        sim_.run_until(*opts_.timeout);
    else
        sim_.run();
    if (outstanding_ > 0) {
        const bool timed_out = opts_.timeout && sim_.pending() > 0;
        result_.hang = hang_report(timed_out);
        if (!timed_out && running_collectives_.empty() && running_p2p_.empty() && paused_.empty())
            throw_deadlock(*result_.hang, trace_, outstanding_);
    }
    for (const OpTiming& t : result_.timings) result_.makespan = std::max(result_.makespan, t.end);
    for (ChannelId c = 0; c < topo_.channel_count(); ++c) result_.carried.push_back(net_.carried(c));
    if (sampler) result_.samples = sampler->take();
    result_.events = sim_.events_processed();
    return std::move(result_);
}

void Replayer::release(const Member& m, InstanceId by) {
    const InstanceId x = instance(m);
    result_.timings[x].blocker = by;
    if (--waiting_[x] == 0) ready(m);
}

void Replayer::ready(const Member& m) {
    OpTiming& t = result_.timings[instance(m)];
    t.ready = sim_.now();
    const TraceOp& op = op_of(m);
    switch (op.kind) {
        case OpKind::compute: {
            t.start = sim_.now();
            const Time nominal = coster_.duration(m.rank, op);
            const std::optional<Time> end = compute_faults_
                                                ? compute_faults_->end(m.rank, m.step, m.op, sim_.now(), nominal)
                                                : std::optional<Time>(sim_.now() + nominal);
            if (end)
                sim_.schedule_at(*end, [this, m] { complete(m); });
            else
                paused_.push_back(m.rank);
            break;
        }
        case OpKind::collective: arrive_collective(m); break;
        case OpKind::send:
        case OpKind::recv: arrive_p2p(m); break;
    }
}

void Replayer::complete(const Member& m) {
    const InstanceId x = instance(m);
    result_.timings[x].end = sim_.now();
    result_.timings[x].done = true;
    --outstanding_;
    if (opts_.monitor) opts_.monitor->add_done();
    last_progress_ = sim_.now();
    const Rank& rank = ranks_[static_cast<std::size_t>(m.rank)];
    for (OpIndex d : rank.plan->dependents[m.op]) release({m.rank, m.step, d}, x);
    const OpIndex next = rank.plan->stream_next[m.op];
    if (next != kNoOp) release({m.rank, m.step, next}, x);
    else if (m.step + 1 < opts_.steps)
        release({m.rank, m.step + 1, rank.plan->stream_first[rank.program->ops[m.op].stream]}, x);
}

void Replayer::arrive_collective(const Member& m) {
    const TraceOp& op = op_of(m);
    const uint32_t c = op.collective.comm;
    const Communicator& comm = trace_.communicators[c];
    const auto g = static_cast<uint32_t>(comm.group_of[static_cast<std::size_t>(m.rank)]);
    const ProgramPlan& plan = *ranks_[static_cast<std::size_t>(m.rank)].plan;
    const uint32_t seq = static_cast<uint32_t>(m.step) * plan.calls_per_comm[c] + plan.call_index[m.op];
    const auto key = std::make_tuple(c, g, seq);
    PendingCollective& p = collectives_[key];
    const std::size_t n = comm.groups[g].size();
    if (p.members.empty()) {
        p.members.resize(n);
        p.present.assign(n, 0);
        p.first = sim_.now();
    }
    const auto pos = static_cast<std::size_t>(comm.position[static_cast<std::size_t>(m.rank)]);
    p.members[pos] = m;
    p.present[pos] = 1;
    p.last = sim_.now();
    p.last_rank = m.rank;
    if (++p.arrived < n) return;
    PendingCollective ready_group = std::move(p);
    collectives_.erase(key);
    launch_collective(std::move(ready_group), c, g, m.step);
}

void Replayer::launch_collective(PendingCollective&& p, uint32_t comm, uint32_t group, int step) {
    const auto run = static_cast<uint32_t>(result_.collectives.size());
    const TraceOp& op = op_of(p.members[0]);
    const CollectiveSpec& spec = op.collective;
    CollectiveRun rec;
    rec.comm = comm;
    rec.group = group;
    rec.step = step;
    rec.op = p.members[0].op;
    rec.name = op.name;
    rec.kind = spec.op;
    rec.bytes = spec.bytes;
    rec.ranks = static_cast<int>(p.members.size());
    rec.first_arrival = p.first;
    rec.last_arrival = p.last;
    rec.last_rank = p.last_rank;
    std::vector<DeviceId> gpus;
    std::vector<std::vector<Bytes>> split;
    // A measured NCCL kernel spins while it waits for late peers, so the member
    // with the shortest kernel arrived last: its time is the collective's own.
    Time measured = Time::max();
    for (const Member& m : p.members) {
        OpTiming& t = result_.timings[instance(m)];
        t.start = sim_.now();
        t.run = run;
        gpus.push_back(gpus_[static_cast<std::size_t>(m.rank)]);
        rec.members.push_back(m.rank);
        rec.arrivals.push_back(t.ready);
        const CollectiveSpec& mine = op_of(m).collective;
        if (!spec.split.empty()) split.push_back(mine.split);
        if (mine.duration) measured = std::min(measured, *mine.duration);
    }
    running_collectives_.emplace(run, p.members);
    auto done = [this, members = std::move(p.members)]() mutable { finish_run(std::move(members)); };
    if (spec.duration) {
        rec.algo = "measured";
        sim_.schedule_in(measured, std::move(done));
    } else if (gpus.size() == 1) {
        rec.algo = "local";  // one rank: nothing to exchange
        sim_.schedule_in(Time{}, std::move(done));
    } else {
        if (link_stragglers_) link_stragglers_->begin(net_, run, step);
        const LaunchInfo info = split.empty()
                                    ? launcher_.collective(gpus, spec.op, spec.bytes, spec.root, std::move(done))
                                    : launcher_.alltoallv(gpus, split, std::move(done));
        rec.algo = info.algo;
        rec.proto = info.proto;
        rec.channels = info.channels;
        rec.simulated_channels = info.simulated_channels;
        rec.bounded = info.bounded;
        rec.lumped = info.lumped;
        rec.fluid = info.fluid;
    }
    result_.collectives.push_back(std::move(rec));
}

void Replayer::arrive_p2p(const Member& m) {
    const TraceOp& op = op_of(m);
    const bool send = op.kind == OpKind::send;
    const int peer = p2p_peer(trace_, m.rank, op.p2p);
    const Rank& rank = ranks_[static_cast<std::size_t>(m.rank)];
    const uint32_t seq = static_cast<uint32_t>(m.step) * rank.p2p_per_step.at({peer, send}) + rank.p2p_index[m.op];
    const auto key = send ? std::make_tuple(m.rank, peer, seq) : std::make_tuple(peer, m.rank, seq);
    PendingP2P& p = p2p_[key];
    (send ? p.send : p.recv) = m;
    if (!p.send || !p.recv) return;
    const Member s = *p.send, r = *p.recv;
    p2p_.erase(key);
    launch_p2p(s, r);
}

void Replayer::launch_p2p(const Member& send, const Member& recv) {
    const auto run = static_cast<uint32_t>(result_.p2p.size());
    P2PRun rec;
    rec.from = send.rank;
    rec.to = recv.rank;
    rec.step = send.step;
    rec.name = op_of(send).name;
    rec.recv_name = op_of(recv).name;
    rec.bytes = op_of(send).p2p.bytes;
    rec.send_arrival = result_.timings[instance(send)].ready;
    rec.recv_arrival = result_.timings[instance(recv)].ready;
    rec.start = sim_.now();
    for (const Member& m : {send, recv}) {
        result_.timings[instance(m)].start = sim_.now();
        result_.timings[instance(m)].run = run;
    }
    result_.p2p.push_back(rec);
    running_p2p_.emplace(run, std::vector<Member>{send, recv});
    launcher_.p2p(gpus_[static_cast<std::size_t>(send.rank)], gpus_[static_cast<std::size_t>(recv.rank)], rec.bytes,
                  [this, send, recv] { finish_run({send, recv}); });
}

void Replayer::finish_run(std::vector<Member> members) {
    const OpTiming& first = result_.timings[instance(members[0])];
    const bool p2p = op_of(members[0]).kind != OpKind::collective;
    if (p2p) result_.p2p[first.run].end = sim_.now();
    else result_.collectives[first.run].end = sim_.now();
    (p2p ? running_p2p_ : running_collectives_).erase(first.run);
    if (!p2p && link_stragglers_) link_stragglers_->end(net_, first.run);
    for (const Member& m : members) complete(m);
}

// Whether the job still moves: periodic faults (a flapping link) stop once
// nothing has finished for a simulated minute, so a hung replay ends.
bool Replayer::progressing() const {
    constexpr Time kQuiet = Time::from_ps(int64_t{60} * 1'000'000'000'000);
    return outstanding_ > 0 && sim_.now() - last_progress_ < kQuiet;
}

ReplayHang Replayer::hang_report(bool timed_out) const {
    ReplayHang h;
    h.at = timed_out ? sim_.now() : sim_.last_event();
    h.timed_out = timed_out;
    auto ranks = [](const std::vector<Member>& ms) {
        std::vector<int> out;
        for (const Member& m : ms) out.push_back(m.rank);
        return out;
    };
    auto stuck = [&](const Member& m, bool launched, std::vector<int> waiting, std::vector<int> missing) {
        const TraceOp& op = op_of(m);
        h.stuck.push_back({op.name, op.where, op.kind, m.step + 1, launched, std::move(waiting), std::move(missing)});
    };
    for (const auto& [run, members] : running_collectives_) stuck(members[0], true, ranks(members), {});
    for (const auto& [run, members] : running_p2p_) stuck(members[0], true, ranks(members), {});
    for (const auto& [key, p] : collectives_) {
        std::vector<Member> present;
        std::vector<int> missing;
        const auto& group = trace_.communicators[std::get<0>(key)].groups[std::get<1>(key)];
        for (std::size_t i = 0; i < p.members.size(); ++i) {
            if (p.present[i]) present.push_back(p.members[i]);
            else missing.push_back(group[i]);
        }
        stuck(present.back(), false, ranks(present), std::move(missing));
    }
    for (const auto& [key, p] : p2p_)
        stuck(p.send ? *p.send : *p.recv, false, {p.send ? p.send->rank : p.recv->rank},
              {p.send ? std::get<1>(key) : std::get<0>(key)});
    h.paused_ranks = paused_;
    std::sort(h.paused_ranks.begin(), h.paused_ranks.end());
    for (ResourceId r : net_.dead_on_stalled(topo_.channel_count())) h.dead_channels.push_back(r);
    return h;
}

}  // namespace

ReplayResult replay(const Topology& topo, const Trace& trace, const ReplayOptions& opts) {
    if (opts.steps < 1) throw std::invalid_argument("replay needs at least one step");
    Replayer r(topo, trace, opts);
    return r.run();
}

}  // namespace collsim
