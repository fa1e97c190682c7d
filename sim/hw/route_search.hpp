#pragma once
// The two searches behind Routes, both bidirectional: they grow a ball from
// each end and stop when the balls meet, so a query between two GPUs of a
// 131,072-GPU fat-tree touches their nodes, leaves and the switches above,
// not the whole fabric. GPUs are endpoints: a search never leaves a GPU other
// than the one it started from.
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/hw/topology.hpp"

namespace collsim {

class RouteSearch {
public:
    explicit RouteSearch(const Topology& topo);

    // The largest bottleneck bandwidth (bytes/s) of any src -> dst path; 0
    // when there is none.
    int64_t widest(DeviceId src, DeviceId dst);

    // The devices on the fewest-hop src -> dst paths over links at least
    // `floor_bps` wide, with their distance from src, sorted by distance then
    // id (src first, dst last), into `vertex` and `hop`. Empty when there is
    // no such path.
    void shortest_paths(DeviceId src, DeviceId dst, int64_t floor_bps, std::vector<DeviceId>& vertex,
                        std::vector<int>& hop);

    bool may_transit(DeviceId v, DeviceId origin) const {
        return v == origin || topo_.device(v).kind != DeviceKind::gpu;
    }

private:
    struct Side {
        std::vector<int64_t> bw;  // widest: best bottleneck so far (0: unreached)
        std::vector<int> hops;    // widest: hops of that path; shortest_paths: BFS level (-1: unreached)
        std::vector<DeviceId> touched;
        void reset();
    };
    int64_t link_bps(ChannelId c) const { return topo_.link(Topology::link_of(c)).bandwidth.bps(); }

    const Topology& topo_;
    Side side_[2];  // 0: from src, 1: from dst
    std::vector<uint8_t> mark_;
    // Scratch, kept between queries: a route query at scale is a few
    // thousand devices, and allocating these each time was a fifth of it.
    using Key = std::tuple<int64_t, int, DeviceId>;  // widest: bottleneck, -hops, device
    std::vector<Key> queue_[2];
    std::vector<DeviceId> frontier_[2], next_, on_path_;
    std::vector<std::pair<int, DeviceId>> by_hop_;
};

}  // namespace collsim
