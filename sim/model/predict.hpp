#pragma once
// One collective call, predicted: pick the algorithm, protocol and channel
// count (as NCCL would, unless the caller fixes them), build its schedule and
// time it on the flow-level network with the calibration applied, or take
// its closed form (alpha-beta) on the same links.
#include <optional>
#include <string>
#include <vector>

#include "algorithms/communicator.hpp"
#include "algorithms/cost_model.hpp"
#include "algorithms/tuner/tuner.hpp"
#include "sim/exec/collective.hpp"
#include "sim/exec/executor.hpp"
#include "sim/exec/simulate.hpp"
#include "sim/hw/routes.hpp"
#include "sim/hw/routing_policy.hpp"
#include "sim/model/calibration.hpp"
#include "sim/model/model_tier.hpp"

namespace collsim {

namespace msccl {
struct MscclAlgorithm;
}
struct AlgorithmInfo;

// The default bound on a simulated schedule's steps (PredictRequest::max_steps):
// past it, a ring lumps its steps (CollectiveCall::max_steps) and other
// algorithms simulate fewer channels (each channel is a full copy of the
// algorithm over its share of the data).
inline constexpr std::size_t kMaxSimulatedSteps = 4'000'000;

struct PredictRequest {
    CollOp op = CollOp::allreduce;
    Bytes bytes;                  // per-rank buffer, as nccl-tests reports size
    std::vector<DeviceId> ranks;  // the communicator's GPUs in rank order
    std::string algo = "auto";    // a registered algorithm, or auto
    std::string proto = "auto";   // ll, ll128, simple, or auto
    int channels = 0;             // 0: chosen from the topology
    NetworkSetup setup;           // faults acting on the network, if any
    std::optional<Time> timeout;  // watchdog
    RoutingPolicy routing;        // which equal-cost path each flow takes
    int root = 0;                 // Broadcast and Reduce
    // Which tier times it (model_tier.hpp); analytical: the closed form alone.
    ModelTier model = ModelTier::automatic;
    bool explain = false;         // the closed form too, and the simulation's link loads
    bool link_traffic = false;    // the flow simulation's traffic per link direction (Prediction::link_traffic)
    const msccl::MscclAlgorithm* msccl = nullptr;  // run this file's schedule instead of `algo`
    // Schedules larger than this are lumped or simulated with fewer channels.
    std::size_t max_steps = kMaxSimulatedSteps;
    // Algorithms the tuner may not pick (as NCCL_NVLS_ENABLE=0 or
    // NCCL_COLLNET_ENABLE=0 turn them off); names from the registry.
    std::vector<std::string> disabled{};
    // Algorithms NCCL leaves off unless asked (AlgorithmInfo::enabled_by)
    // that the tuner may pick.
    std::vector<std::string> enabled{};
    // Protocols NCCL_PROTO turned off, or on where NCCL leaves them off.
    ProtoSwitches protos{};
    // No fault plan and no other traffic on the network (CollectiveCall::network_alone).
    bool network_alone = true;
};

struct Prediction {
    std::string algo;
    ProtoKind proto = ProtoKind::simple;
    int channels = 1;
    Time time;
    std::string why;  // how the choice was made, for --explain
    std::optional<HangReport> hang;  // set when the collective never finished
    std::optional<Time> flow;         // the flow simulation's time, when it ran
    std::optional<Estimate> closed;   // the closed form, when asked for
    std::vector<uint32_t> peak_link_load;  // with explain: most sends at once per link direction
    ModelTier tier = ModelTier::flow;      // the tier that gave `time`: flow, fluid or analytical
    uint64_t events = 0;                   // engine events the simulation ran (0: none ran)
    // Every simplification the tier made, in words (fewer channels, lumped
    // steps, fluid streams); empty: none.
    std::vector<std::string> reductions;
    std::vector<LinkTraffic> link_traffic;  // with link_traffic: each link direction that carried bytes
};

// What a call runs with, ready to simulate: the algorithm, protocol and
// channels (chosen as NCCL would unless the request fixes them), the call its
// schedule and closed form are built for, the schedule itself and how its
// channels lie over the GPUs. Shared by predict_collective (one call alone on
// the network) and the replayer (many calls on one network).
struct CollectivePlan {
    const AlgorithmInfo* algorithm = nullptr;
    ProtoKind proto = ProtoKind::simple;
    Protocol protocol;  // NCCL's figures for it, with the calibration applied
    int channels = 1;   // what NCCL launches
    GpuArch arch = GpuArch::unknown;
    std::string why;
    int simulated_channels = 1;  // fewer than `channels` where the links cannot tell them apart, or:
    bool bounded = false;        // fewer still, to keep the schedule within max_steps
    bool lumped = false;         // the schedule's steps lumped to keep within max_steps (ring_steps.hpp)
    ModelTier tier = ModelTier::flow;  // flow or fluid: what the schedule is; analytical: none
    std::vector<std::string> reductions;  // as in Prediction
    CollectiveCall call;         // the schedule's: with simulated_channels, standing for `channels`
    // The closed form's: every channel the links can tell apart, pipelined as
    // NCCL does whatever bounds the schedule (one closed form for every tier).
    CollectiveCall closed_call;
    CommLayout comm;
    std::optional<Schedule> schedule;  // absent when only the closed form was asked for
    std::vector<std::vector<DeviceId>> channel_gpus;  // Executor::place_channels
};

// Throws InputError (--algo, --proto) for a name that is neither a registered
// algorithm or protocol nor auto; `algo` empty: not checked (an MSCCL file).
void check_algo_proto_names(const std::string& algo, const std::string& proto);

// Throws InputError for an unknown or ineligible algorithm or protocol.
CollectivePlan plan_collective(const Topology& topo, Routes& routes, const PredictRequest& req,
                               const Calibration& cal);

// Link bandwidth shares a collective achieves: NCCL's own per-link figures for
// the GPU generation, times the calibration's fitted efficiency.
LinkEfficiency collective_link_efficiency(GpuArch arch, const Calibration& cal);

// Throws InputError for an unknown or ineligible algorithm or protocol.
Prediction predict_collective(const Topology& topo, Routes& routes, const PredictRequest& req, const Calibration& cal);

// Enough channels that every distinct link a GPU can use toward its ring
// neighbour carries one, as NCCL's graph search spreads channels over links.
int default_channels(Routes& routes, const std::vector<DeviceId>& ranks);

}  // namespace collsim
