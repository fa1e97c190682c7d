#pragma once
// Routes between devices. A route is a widest-then-shortest path: first the
// highest bottleneck bandwidth (so GPUs that share NVLink use it rather than
// PCIe, as NCCL's path search does), then the fewest hops. All routes that tie
// on both are kept for ECMP, as a small DAG per (source, destination) pair:
// only the devices on some equal-cost path are stored, and paths are counted
// and indexed, never listed.
//
// Queries are lazy and cached per pair; nothing is computed for pairs that are
// never asked about, and each query is a bidirectional search that touches
// the neighbourhoods of its two ends (route_search.hpp), so a 131,072-GPU
// fabric costs milliseconds per pair.
// GPUs of a host without PCIe peer-to-peer reach each other through its root
// complex, even where a PCIe switch joins them (staging.hpp).
// Paths never pass through a GPU: a GPU forwards nothing it did not receive as
// a collective step. A GPU's traffic to another node leaves (and a GPU's
// traffic from another node enters) through its own NICs (home_nics in
// nodes.hpp), as NCCL binds each GPU to a local NIC; only where no such path
// exists may it use another NIC of its node.
#include <cstdint>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include "sim/hw/nodes.hpp"
#include "sim/hw/route_search.hpp"
#include "sim/hw/topology.hpp"

namespace collsim {

struct Path {
    std::vector<ChannelId> channels;
    Time latency{};        // links plus forwarding latency of the devices in between
    Time software_latency{};  // the software_latency of the NICs on the path (transport.hpp)
    Bandwidth bottleneck;  // narrowest link on the path
    LinkClass link_class = LinkClass::nvlink;  // slowest class of link on the path
};

class Routes {
public:
    explicit Routes(const Topology& topo);

    bool reachable(DeviceId src, DeviceId dst);
    // Number of equal-cost paths; saturates at UINT64_MAX. 0 when unreachable.
    uint64_t path_count(DeviceId src, DeviceId dst);
    // The index-th equal-cost path (index taken modulo path_count).
    Path path(DeviceId src, DeviceId dst, uint64_t index = 0);
    // How many distinct first-hop links the equal-cost paths use.
    std::size_t first_hop_links(DeviceId src, DeviceId dst);
    // Hops of the equal-cost paths (0 for src == dst, -1 when unreachable).
    int hops(DeviceId src, DeviceId dst);

    // The equal-cost path whose busiest channel has the least `load`, then the
    // least total load; remaining ties go to the channel that `tie_break`
    // hashes lowest, so equal candidates spread rather than pile onto one.
    Path least_loaded_path(DeviceId src, DeviceId dst, const std::function<uint64_t(ChannelId)>& load,
                           uint64_t tie_break);

    std::size_t cached_pairs() const { return dags_.size(); }
    // Node of every device and each GPU's own NICs (nodes.hpp), as routes use them.
    const std::vector<uint32_t>& node_of() const { return node_; }
    const std::vector<std::vector<DeviceId>>& home_nics() const { return home_; }
    // The cache is dropped when its DAGs reach this many bytes (a cross-pod
    // pair of a 3-tier fat-tree takes about 2 KB), so an all-to-all over a
    // large cluster stays bounded while one collective's pairs at 131,072
    // GPUs (about a million) stay cached; answers never depend on what is
    // cached.
    static constexpr std::size_t kMaxCachedBytes = std::size_t{1} << 30;

private:
    // The devices on equal-cost src->dst paths, ordered by hop count (src
    // first, dst last), with their incoming channels on those paths, as it is
    // built (scratch, reused from query to query).
    struct DagParts {
        std::vector<DeviceId> vertex;
        std::vector<int> hop;
        std::vector<uint64_t> count;       // paths from src to vertex[i]
        std::vector<uint32_t> pred_begin;  // preds of vertex[i]: [pred_begin[i], pred_begin[i+1])
        std::vector<ChannelId> pred;       // incoming channel
        std::vector<uint32_t> pred_from;   // index in vertex of that channel's source
    };
    // What queries need of it, cached: two allocations per pair instead of six
    // (a 131,072-GPU collective caches about a million pairs).
    struct Dag {
        std::vector<uint64_t> count;  // per vertex; empty when unreachable
        std::vector<uint32_t> preds;  // pred_begin (vertices + 1), then pred, then pred_from
        int hops = -1;                // of dst
        explicit Dag(const DagParts& p);
        uint32_t vertices() const { return static_cast<uint32_t>(count.size()); }
        uint32_t begin(uint32_t v) const { return preds[v]; }
        ChannelId pred(uint32_t k) const { return preds[vertices() + 1 + k]; }
        uint32_t from(uint32_t k) const { return preds[vertices() + 1 + preds[vertices()] + k]; }
        std::size_t bytes() const { return sizeof(Dag) + count.size() * sizeof(uint64_t) + preds.size() * sizeof(uint32_t); }
    };

    const Dag* dag(DeviceId src, DeviceId dst);  // nullptr when unreachable
    void build(DeviceId src, DeviceId dst);      // into parts_
    void build_dag(DagParts& d, DeviceId src, DeviceId dst, int64_t floor_bps, bool own_nics);
    bool turns_below_staging_host(const DagParts& d) const;
    void via(DeviceId src, DeviceId host, DeviceId dst);
    // A NIC of src's or dst's node that is not theirs to use.
    bool foreign_nic(DeviceId v, DeviceId src, DeviceId dst) const;
    Path finish_path(std::vector<ChannelId> channels) const;
    void check(DeviceId src, DeviceId dst) const;

    const Topology& topo_;
    // Keyed by (src, dst) in an open-addressing table (key + 1, 0 for empty;
    // linear probing, at most half full) over a deque whose entries stay put:
    // a replay asks for a route on every send, closed forms at scale for
    // millions, and a node-based map's cache misses were 11% of a
    // 16,384-GPU fluid run (BENCHMARKS.md). `last_` answers the repeated
    // look-up of one pair (ECMP asks for the path count, then the path).
    std::vector<uint64_t> keys_;
    std::vector<uint32_t> slots_;
    std::deque<Dag> dags_;
    std::size_t bytes_ = 0;
    uint64_t last_key_ = 0;  // key + 1 of last_, 0 for none
    const Dag* last_ = nullptr;
    RouteSearch search_;
    DagParts parts_, second_;     // scratch of build and via
    std::vector<uint32_t> slot_;  // scratch: device -> index in the Dag being built
    std::vector<uint32_t> node_;
    std::vector<std::vector<DeviceId>> home_;
    // The widest network link: every path between two nodes crosses one, so
    // none is wider (see build).
    int64_t network_bps_ = 0;
};

}  // namespace collsim
