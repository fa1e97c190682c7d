#pragma once
// Routes between devices. A route is a widest-then-shortest path: first the
// highest bottleneck bandwidth (so GPUs that share NVLink use it rather than
// PCIe, as NCCL's path search does), then the fewest hops. All routes that tie
// on both are kept, as a DAG per (source, bandwidth floor), for ECMP; they are
// counted and indexed, never listed, so large fabrics stay cheap.
// Paths never pass through a GPU: a GPU forwards nothing it did not receive
// as a collective step.
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "sim/hw/topology.hpp"

namespace collsim {

struct Path {
    std::vector<ChannelId> channels;
    Time latency{};        // links plus forwarding latency of the devices in between
    Bandwidth bottleneck;  // narrowest link on the path
    LinkClass link_class = LinkClass::nvlink;  // slowest class of link on the path
};

class Routes {
public:
    explicit Routes(const Topology& topo) : topo_(topo) {}

    bool reachable(DeviceId src, DeviceId dst);
    // Number of equal-cost paths; saturates at UINT64_MAX. 0 when unreachable.
    uint64_t path_count(DeviceId src, DeviceId dst);
    // The index-th equal-cost path (index taken modulo path_count).
    Path path(DeviceId src, DeviceId dst, uint64_t index = 0);
    // How many distinct first-hop links the equal-cost paths use.
    std::size_t first_hop_links(DeviceId src, DeviceId dst);

private:
    struct Dag {
        std::vector<int> hops;                      // -1: unreached
        std::vector<std::vector<ChannelId>> preds;  // incoming channels on shortest paths
        std::vector<uint64_t> count;                // paths from the source
    };
    const std::vector<int64_t>& widest_from(DeviceId src);
    const Dag& dag(DeviceId src, DeviceId dst);
    Dag build_dag(DeviceId src, int64_t floor_bps) const;
    bool may_transit(DeviceId v, DeviceId src) const;

    const Topology& topo_;
    std::map<DeviceId, std::vector<int64_t>> widest_;
    std::map<std::pair<DeviceId, int64_t>, Dag> dags_;
};

}  // namespace collsim
