#pragma once
// The alpha-beta costs that the algorithms' closed forms are written in. Each
// figure is the one the executor charges for the same step with nothing else
// on the network: a send pays its route's latency, the protocol's per-step
// latency for the route's class, and its wire bytes over the route's
// bottleneck; a GPU reduction pays 3 bytes of memory traffic per byte.
// Flows of one algorithm that share a link by design (channels on one route,
// two children feeding one parent) are part of the closed form; anything else
// sharing a link is contention, which only the flow simulation sees.
#include <array>
#include <deque>
#include <span>
#include <vector>

#include "algorithms/communicator.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/hw/routes.hpp"
#include "sim/hw/routing_policy.hpp"

namespace collsim {

// A time split into its latency (alpha) and bandwidth (beta) terms.
struct Estimate {
    Time latency;
    Time bandwidth;

    Time total() const { return latency + bandwidth; }
    Estimate& operator+=(const Estimate& o) {
        latency += o.latency;
        bandwidth += o.bandwidth;
        return *this;
    }
    Estimate operator+(const Estimate& o) const { return Estimate(*this) += o; }
    Estimate operator*(int64_t k) const { return Estimate{latency * k, bandwidth * k}; }
};
// The slower of two estimates (ties keep the first).
Estimate slower(const Estimate& a, const Estimate& b);

// One transfer of a set that runs at once.
struct Transfer {
    DeviceId from = 0, to = 0;
    Bytes bytes;
    int channel = 0;  // route index
};

class CostModel {
public:
    // `efficiency`: the share of each LinkClass's bandwidth collectives get, as
    // the flow simulation is given it (LinkEfficiency).
    // `layout`: per channel, the GPU that plays each rank (as the flow
    // simulation places channels, SimulateOptions::channel_gpus); empty: the
    // communicator's order on every channel.
    // `routing`: which equal-cost path a transfer takes, as the flow
    // simulation picks it for a flow of that channel (adaptive routing,
    // which steers by load, takes its load-free choice).
    CostModel(const CommLayout& comm, Routes& routes, const Protocol& proto,
              std::array<double, 3> efficiency = {1.0, 1.0, 1.0}, std::vector<std::vector<DeviceId>> layout = {},
              RoutingPolicy routing = {})
        : comm_(comm), routes_(routes), proto_(proto), efficiency_(efficiency), layout_(std::move(layout)),
          routing_(routing) {}

    // The GPU that plays `rank` on `channel`.
    DeviceId gpu(int rank, int channel = 0) const {
        const auto& order = layout_.empty() ? comm_.gpus : layout_[static_cast<std::size_t>(channel) % layout_.size()];
        return order[static_cast<std::size_t>(rank)];
    }

    const CommLayout& comm() const { return comm_; }
    const Protocol& protocol() const { return proto_; }
    Routes& routes() { return routes_; }
    Estimate launch() const { return Estimate{proto_.base_latency, Time{}}; }

    // One send of `payload` from device a to b over route `channel` while
    // `sharing` equal flows (a's channels) divide the route's bottleneck and
    // a's protocol ceiling.
    Estimate send(DeviceId a, DeviceId b, Bytes payload, int sharing = 1, int channel = 0, bool hop_latency = true);
    // Rank a sends `payload` to rank b on each of `channels` channels at once
    // (channel c between the GPUs that play a and b on it, over route c):
    // flows whose routes meet on a link divide that link.
    Estimate send_channels(int a, int b, Bytes payload, int channels, bool hop_latency = true);
    // Transfers that all start together: each link is divided among the
    // transfers that cross it; the slowest transfer's time.
    Estimate concurrent(const std::vector<Transfer>& transfers, bool hop_latency = true);
    // The same, transfer by transfer.
    std::vector<Estimate> concurrent_each(const std::vector<Transfer>& transfers, bool hop_latency = true);
    // The transfers' paths, looked up once (the cache's entries stay put), for
    // a closed form that times several subsets of one set of transfers: at
    // scale the look-ups, not the arithmetic, were most of its cost.
    std::vector<const Path*> paths_of(std::span<const Transfer> transfers);
    // concurrent_each over transfers whose paths are given (paths[i] is
    // transfers[i]'s), estimating only the first `estimated`: every transfer
    // loads the links and the senders' ceilings all the same.
    std::vector<Estimate> concurrent_each(std::span<const Transfer> transfers, std::span<const Path* const> paths,
                                          std::size_t estimated, bool hop_latency = true);
    // A reduction of `payload` on a GPU while `sharing` reductions run there.
    Estimate reduce(DeviceId gpu, Bytes payload, int sharing = 1) const;
    // `steps` reductions of `payload` each, one after another.
    Estimate reduce_steps(DeviceId gpu, Bytes payload, int64_t steps, int sharing = 1) const {
        const Estimate one = reduce(gpu, payload, sharing);
        return Estimate{one.latency, one.bandwidth * steps};
    }
    Estimate local_copy(DeviceId gpu, Bytes payload, int sharing = 1) const;

    const Path& path(DeviceId a, DeviceId b, int channel);
    // A link direction's bandwidth as the flow simulation sees it.
    Bandwidth capacity(ChannelId c) const;
    // Wire bytes per second a send from `from` may carry while `sharing` sends
    // divide its Protocol::rank_ceiling (INT64_MAX: none; switches have none).
    int64_t ceiling(DeviceId from, int sharing) const;
    // A send between these devices goes into or out of a reducing NVSwitch.
    bool via_switch(DeviceId a, DeviceId b) const;

private:
    const CommLayout& comm_;
    Routes& routes_;
    Protocol proto_;
    std::array<double, 3> efficiency_;
    std::vector<std::vector<DeviceId>> layout_;
    RoutingPolicy routing_;
    // Keyed by (a, b, channel) packed into 64 bits, in an open-addressing
    // table (key + 1, 0 for empty; linear probing, at most half full) over a
    // deque whose entries stay put: closed forms at scale ask for millions of
    // paths, and a node-based map's two cache misses per look-up were 9% of
    // a 16,384-GPU fluid run (BENCHMARKS.md).
    std::vector<uint64_t> path_keys_;
    std::vector<uint32_t> path_slots_;
    std::deque<Path> paths_;
    // Scratch for concurrent_each: transfers per link direction, zero between calls.
    std::vector<int> load_;
    // capacity(c).bps() per link direction, filled as asked (-1: not yet).
    std::vector<int64_t> capacity_bps_;
};

}  // namespace collsim
