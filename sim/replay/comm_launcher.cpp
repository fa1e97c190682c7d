#include "sim/replay/comm_launcher.hpp"

#include <algorithm>

#include "algorithms/algorithm.hpp"
#include "algorithms/tuner/p2p_channels.hpp"

namespace collsim {

namespace {

// How many rounds of an all-to-all run at once: NCCL spreads a group's sends
// over its p2p channels, a few channels per peer (its init log prints e.g.
// "8 p2p channels, 2 p2p channels per peer", NVIDIA/nccl issue #1189), so
// about 8 / 2 peers are served at a time.
constexpr int kPeersInFlight = 4;

// Member i's sends as NCCL orders a group of them: in round d it sends to
// i + d and receives from i - d ("rotating pairs", which is how NCCL avoids
// deadlock: NVIDIA/nccl issue #784), and a send waits for the one
// kPeersInFlight rounds earlier. split[i][j]: bytes from member i to member j.
std::unique_ptr<Schedule> sends_schedule(const std::vector<std::vector<Bytes>>& split, const char* name) {
    auto s = std::make_unique<Schedule>();
    s->algorithm = name;
    s->ranks = static_cast<int>(split.size());
    s->channels = 1;
    s->chunks = s->ranks;
    const int n = s->ranks;
    std::vector<std::vector<StepId>> sent(static_cast<std::size_t>(n));
    for (int d = 1; d < n; ++d)
        for (int i = 0; i < n; ++i) {
            const int j = (i + d) % n;
            const Bytes b = split[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
            if (b.count() == 0) continue;
            auto& mine = sent[static_cast<std::size_t>(i)];
            std::vector<StepId> deps;
            if (mine.size() >= kPeersInFlight) deps.push_back(mine[mine.size() - kPeersInFlight]);
            mine.push_back(s->send(i, j, 0, j, b, deps));
        }
    return s;
}
}  // namespace

CommLauncher::CommLauncher(Simulator& sim, Network& net, Routes& routes, const Topology& topo,
                           const Calibration& cal, std::size_t max_schedule_steps, std::string algo, std::string proto,
                           std::vector<std::string> disabled, std::vector<std::string> enabled, ModelTier model,
                           bool stream_classes)
    : sim_(sim), net_(net), routes_(routes), topo_(topo), cal_(cal), max_steps_(max_schedule_steps),
      algo_(std::move(algo)), proto_(std::move(proto)), disabled_(std::move(disabled)), enabled_(std::move(enabled)),
      model_(model), stream_classes_(stream_classes), paths_(topo, routes, RoutingPolicy{}) {}

// NCCL runs point-to-point operations with the Simple protocol, outside its
// tuner; their steps pay the ring/Simple latencies (NCCL v2.30.7 tables), and
// each GPU's sends take at most what NCCL's p2p channels carry for sends of
// this size among these GPUs (`op` and `bytes` as nccl-tests counts them).
const Protocol& CommLauncher::p2p_protocol(const std::vector<DeviceId>& gpus, CollOp op, Bytes bytes) {
    auto key = std::make_tuple(gpus, op, bytes.count());
    auto it = p2p_protocols_.find(key);
    if (it == p2p_protocols_.end()) {
        const Protocol simple = calibrated(*nccl_protocol(NcclFamily::ring, ProtoKind::simple), NcclFamily::ring, cal_);
        const double bound = p2p_ceiling_GBps(comm_shape(topo_, routes_, gpus), op, bytes);
        it = p2p_protocols_.emplace(std::move(key), point_to_point(simple, cal_, bound)).first;
    }
    return it->second;
}

void CommLauncher::run(const Schedule& s, std::vector<DeviceId> gpus, const Protocol& proto,
                       const std::vector<std::vector<DeviceId>>& channel_gpus, std::function<void()> done) {
    std::size_t slot;
    if (!free_.empty()) {
        slot = free_.back();
        free_.pop_back();
    } else {
        slot = executors_.size();
        executors_.emplace_back();
    }
    executors_[slot] = std::make_unique<Executor>(sim_, net_, routes_, topo_, std::move(gpus), proto);
    executors_[slot]->share_paths(paths_);
    executors_[slot]->merge_streams(stream_classes_);
    if (!channel_gpus.empty()) executors_[slot]->place_channels(channel_gpus);
    executors_[slot]->start(s, [this, slot, done = std::move(done)] {
        done();
        // The executor is still on the call stack here: release it once this event is over.
        sim_.schedule_in(Time{}, [this, slot] {
            executors_[slot].reset();
            free_.push_back(slot);
        });
    });
}

LaunchInfo CommLauncher::collective(const std::vector<DeviceId>& gpus, CollOp op, Bytes bytes, int root,
                                    std::function<void()> done) {
    auto key = std::make_tuple(gpus, op, bytes.count(), root);
    auto it = plans_.find(key);
    if (it == plans_.end()) {
        PredictRequest req;
        req.op = op;
        req.bytes = bytes;
        req.ranks = gpus;
        req.root = root;
        req.max_steps = max_steps_;
        req.algo = algo_;
        req.proto = proto_;
        req.disabled = disabled_;
        req.enabled = enabled_;
        req.model = model_;
        // A replay's collectives share the network with each other and its faults.
        req.network_alone = false;
        it = plans_.emplace(std::move(key), plan_collective(topo_, routes_, req, cal_)).first;
    }
    const CollectivePlan& p = it->second;
    run(*p.schedule, gpus, p.protocol, p.channel_gpus, std::move(done));
    return LaunchInfo{std::string(p.algorithm->name), p.proto, p.channels, p.simulated_channels, p.bounded,
                      p.lumped, p.tier == ModelTier::fluid};
}

LaunchInfo CommLauncher::alltoallv(const std::vector<DeviceId>& gpus, const std::vector<std::vector<Bytes>>& split,
                                   std::function<void()> done) {
    one_off_.push_back(sends_schedule(split, "pairwise"));
    const Schedule& s = *one_off_.back();
    // The channels NCCL spreads the group over follow the average send.
    Bytes total{};
    for (const auto& row : split)
        for (Bytes b : row) total = total + b;
    const Bytes average(total.count() / std::max<int64_t>(1, std::ssize(split)));
    run(s, gpus, p2p_protocol(gpus, CollOp::alltoall, average), {}, std::move(done));
    return LaunchInfo{"pairwise", ProtoKind::simple, 1, 1, false, false, false};
}

LaunchInfo CommLauncher::p2p(DeviceId from, DeviceId to, Bytes bytes, std::function<void()> done) {
    auto& s = p2p_schedules_[bytes.count()];
    if (!s) s = sends_schedule({{Bytes{}, bytes}, {Bytes{}, Bytes{}}}, "p2p");
    run(*s, {from, to}, p2p_protocol({from, to}, CollOp::sendrecv, bytes), {}, std::move(done));
    return LaunchInfo{"p2p", ProtoKind::simple, 1, 1, false, false, false};
}

}  // namespace collsim
