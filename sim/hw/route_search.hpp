#pragma once
// The two searches behind Routes, both bidirectional: they grow a ball from
// each end and stop when the balls meet, so a query between two GPUs of a
// 131,072-GPU fat-tree touches their nodes, leaves and the switches above,
// not the whole fabric. GPUs are endpoints: a search never leaves a GPU other
// than the one it started from.
#include <cstdint>
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
    // id (src first, dst last). Empty when there is no such path.
    struct Layers {
        std::vector<DeviceId> vertex;
        std::vector<int> hop;
    };
    Layers shortest_paths(DeviceId src, DeviceId dst, int64_t floor_bps);

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
};

}  // namespace collsim
