#pragma once
// What a replay recorded: when every op instance (rank, step, op) became ready,
// started and ended, every collective and point-to-point transfer, and the
// bytes each network resource carried. Metrics and reports are computed from
// this; the replayer itself draws no conclusions.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/exec/collective.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/net/network.hpp"
#include "sim/replay/trace.hpp"

namespace collsim {

using InstanceId = uint32_t;
inline constexpr InstanceId kNoInstance = UINT32_MAX;

struct OpTiming {
    Time ready;  // its stream was free and its dependencies done (for communication: arrival)
    Time start;  // compute: = ready; communication: every participant had arrived
    Time end;
    InstanceId blocker = kNoInstance;  // the dependency (same rank) whose end made it ready
    uint32_t run = UINT32_MAX;         // communication: index into collectives or p2p
    bool done = false;
};

struct CollectiveRun {
    uint32_t comm = 0, group = 0;
    int step = 0;
    OpIndex op = 0;  // in the program of the group's first member
    std::string name;
    CollOp kind = CollOp::allreduce;
    Bytes bytes;
    int ranks = 0;
    std::string algo;  // "measured" for a collective with a given duration
    ProtoKind proto = ProtoKind::simple;
    int channels = 0;            // NCCL launches
    int simulated_channels = 0;  // the simulated schedule holds
    bool bounded = false;        // fewer than the links could carry, to bound the schedule's size
    bool lumped = false;         // ring steps lumped, for the same reason (ring_steps.hpp)
    bool fluid = false;          // timed by the fluid tier (sim/model/model_tier.hpp)
    Time first_arrival, last_arrival, end;
    int last_rank = 0;  // who arrived last
    std::vector<int> members;     // ranks in the group's order
    std::vector<Time> arrivals;   // when each member reached it (what per-rank logs show as entry)
};

struct P2PRun {
    int from = 0, to = 0, step = 0;
    std::string name, recv_name;  // the send op's and the receive op's
    Bytes bytes;
    Time send_arrival, recv_arrival, start, end;
};

// Communication that could not finish when a replay stopped early.
struct StuckCommunication {
    std::string name;
    SourceLocation where;  // the op in the trace
    OpKind kind = OpKind::collective;  // for a transfer, the side that arrived
    int step = 0;
    bool launched = false;     // every rank arrived: its transfers could not finish
    std::vector<int> waiting;  // ranks inside it, waiting
    std::vector<int> missing;  // ranks that never arrived
};

// Why a replay stopped before every op finished, when faults or the watchdog
// stopped it (a trace that deadlocks by itself is an input error instead).
struct ReplayHang {
    Time at;
    bool timed_out = false;  // the watchdog fired; otherwise nothing could progress
    std::vector<StuckCommunication> stuck;  // collectives and send/recv pairs
    std::vector<int> paused_ranks;          // held by a pause without an end
    std::vector<ChannelId> dead_channels;   // zero-capacity link directions on stalled flows
};

// Bytes carried per link direction at regular times, for utilisation tracks.
struct LinkSamples {
    Time interval;
    std::vector<Time> times;
    std::vector<std::vector<int64_t>> carried;  // [sample][channel]
};

struct ReplayResult {
    int ranks = 0, steps = 1;
    Time makespan;
    std::vector<InstanceId> first_instance;  // per rank; instance = first + step * ops + op
    std::vector<OpTiming> timings;
    std::vector<CollectiveRun> collectives;
    std::vector<P2PRun> p2p;
    std::vector<Bytes> carried;  // per link direction (ChannelId)
    LinkSamples samples;
    uint64_t events = 0;
    std::optional<ReplayHang> hang;

    InstanceId instance(int rank, int step, OpIndex op, std::size_t ops) const {
        return first_instance[static_cast<std::size_t>(rank)] + static_cast<InstanceId>(step * ops) + op;
    }
};

}  // namespace collsim
