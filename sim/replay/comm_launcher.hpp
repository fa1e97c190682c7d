#pragma once
// Starts communication on the replay's one shared network: each collective
// becomes a Schedule (the algorithm, protocol and channels NCCL would choose,
// via plan_collective) run by an Executor of its own, so concurrent
// collectives (DP and TP at once) contend for the same links. Point-to-point
// transfers and uneven all-to-alls become schedules of plain sends, as NCCL
// runs them (grouped ncclSend/ncclRecv).
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "sim/exec/executor.hpp"
#include "sim/model/calibration.hpp"
#include "sim/model/predict.hpp"

namespace collsim {

struct LaunchInfo {
    std::string algo;
    ProtoKind proto = ProtoKind::simple;
    int channels = 1;            // what NCCL launches
    int simulated_channels = 1;  // what the schedule holds
    bool bounded = false;        // fewer than the links could carry (PredictRequest::max_steps)
    bool lumped = false;         // steps lumped, for the same reason (CollectivePlan::lumped)
    bool fluid = false;          // the fluid tier's schedule (CollectivePlan::tier)
};

class CommLauncher {
public:
    // `algo` and `proto` fix every collective's choice ("auto": NCCL's tuner);
    // `disabled` and `enabled` are PredictRequest's.
    CommLauncher(Simulator& sim, Network& net, Routes& routes, const Topology& topo, const Calibration& cal,
                 std::size_t max_schedule_steps, std::string algo = "auto", std::string proto = "auto",
                 std::vector<std::string> disabled = {}, std::vector<std::string> enabled = {},
                 ModelTier model = ModelTier::automatic);

    LaunchInfo collective(const std::vector<DeviceId>& gpus, CollOp op, Bytes bytes, int root,
                          std::function<void()> done);
    // split[i][j]: bytes member i sends to member j.
    LaunchInfo alltoallv(const std::vector<DeviceId>& gpus, const std::vector<std::vector<Bytes>>& split,
                         std::function<void()> done);
    LaunchInfo p2p(DeviceId from, DeviceId to, Bytes bytes, std::function<void()> done);

    std::size_t plans() const { return plans_.size(); }

private:
    void run(const Schedule& s, std::vector<DeviceId> gpus, const Protocol& proto,
             const std::vector<std::vector<DeviceId>>& channel_gpus, std::function<void()> done);

    Simulator& sim_;
    Network& net_;
    Routes& routes_;
    const Topology& topo_;
    const Calibration& cal_;
    std::size_t max_steps_;
    std::string algo_, proto_;
    std::vector<std::string> disabled_, enabled_;
    ModelTier model_;
    // The p2p protocol of sends among `gpus` (comm_launcher.cpp), kept per group, operation and size.
    const Protocol& p2p_protocol(const std::vector<DeviceId>& gpus, CollOp op, Bytes bytes);
    std::map<std::tuple<std::vector<DeviceId>, CollOp, int64_t>, Protocol> p2p_protocols_;
    // One plan (with its schedule) per group of GPUs, operation and size.
    std::map<std::tuple<std::vector<DeviceId>, CollOp, int64_t, int>, CollectivePlan> plans_;
    std::map<int64_t, std::unique_ptr<Schedule>> p2p_schedules_;
    std::vector<std::unique_ptr<Schedule>> one_off_;  // uneven all-to-alls, kept while they run
    // Routes of every collective's sends (default routing, as the executors').
    SendPaths paths_;
    std::vector<std::unique_ptr<Executor>> executors_;
    std::vector<std::size_t> free_;
};

}  // namespace collsim
