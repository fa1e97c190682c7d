#pragma once
// The route of a send and what it occupies, kept per (source, destination,
// flow id). A replay's collectives send between the same GPUs on the same
// channels over and over (each bucket's AllReduce in a DP group, each layer's
// in a TP group), and a chunk-level schedule sends every chunk of a
// connection on one route, so the route, its resources and latencies are
// found once rather than per send. Under ECMP and single routing a flow's path
// depends on those three alone (routing_policy.hpp), so the cache changes no
// answer; adaptive routing follows the load of the moment and is never cached.
#include <cstdint>
#include <functional>
#include <span>
#include <unordered_map>
#include <vector>

#include "sim/hw/routes.hpp"
#include "sim/hw/routing_policy.hpp"
#include "sim/net/network.hpp"

namespace collsim {

class SendPaths {
public:
    SendPaths(const Topology& topo, Routes& routes, RoutingPolicy routing);

    struct Send {
        Path path;  // its latencies and link class; `channels` left empty
        // send_resources() of the path: its `channels` link directions first.
        // Valid until the next find().
        std::span<const ResourceId> resources;
        std::size_t channels = 0;
    };
    // `load` gives the active flows on a channel (adaptive routing only).
    Send find(DeviceId from, DeviceId to, uint64_t flow, const std::function<uint64_t(ChannelId)>& load);

    const RoutingPolicy& routing() const { return routing_; }
    // The cache is dropped at this many entries (an all-to-all over a large
    // cluster), as Routes drops its own; answers never depend on it.
    static constexpr std::size_t kMaxEntries = std::size_t{1} << 20;

private:
    struct Key {
        DeviceId from, to;
        uint64_t flow;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const;
    };
    struct Entry {
        Path path;
        uint32_t begin = 0, count = 0, channels = 0;
    };
    Send send_of(const Entry& e) const;

    const Topology& topo_;
    Routes& routes_;
    RoutingPolicy routing_;
    std::unordered_map<Key, Entry, KeyHash> entries_;
    std::vector<ResourceId> resources_;  // entries' resources, back to back
};

}  // namespace collsim
