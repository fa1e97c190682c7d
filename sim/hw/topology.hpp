#pragma once
// The hardware graph: devices as vertices, each full-duplex link as two
// directed edges (one per direction, each a separate bandwidth resource).
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "sim/hw/device.hpp"
#include "sim/hw/link.hpp"

namespace collsim {

// One instantiation of a node template: devices [first, first + size) are
// named `<name>.<device name in the template>`.
struct Instance {
    std::string name;
    std::string template_name;
    DeviceId first = 0;
    uint32_t size = 0;
};

// What a generated fabric (fat-tree, torus) was built as, for summaries.
struct FabricTier {
    std::string name;     // leaf, spine, core, router
    uint32_t switches = 0;
    int64_t down_bps = 0;  // summed per-direction bandwidth toward the endpoints
    int64_t up_bps = 0;    // and toward the next tier (0 at the top)
    // The file's ratio of down to up ports per switch ("2:1"; empty at the
    // top), and the down ports used of those built: a leaf with fewer
    // endpoints than ports has more up than down bandwidth whatever the ratio.
    std::string configured;
    int64_t down_ports_used = 0, down_ports = 0;
};

struct FabricInfo {
    std::string name;
    std::string kind;  // fat_tree, rail_fat_tree, torus, ring
    int planes = 1;
    uint32_t endpoints = 0;
    std::vector<FabricTier> tiers;  // per plane, bottom up
};

class Topology {
public:
    struct EdgeData {
        ChannelId channel = 0;
    };
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property, EdgeData>;

    Topology(std::string name, std::string source, std::vector<Device> devices, std::vector<Link> links,
             std::vector<Instance> instances = {}, std::vector<FabricInfo> fabrics = {});

    const std::string& name() const { return name_; }
    const std::string& source() const { return source_; }  // file it was loaded from
    const std::vector<Device>& devices() const { return devices_; }
    const std::vector<Link>& links() const { return links_; }
    const Device& device(DeviceId id) const { return devices_[id]; }
    const Link& link(LinkId id) const { return links_[id]; }
    const Graph& graph() const { return graph_; }

    // GPUs in declaration order: GPU i is rank i unless a communicator says otherwise.
    const std::vector<DeviceId>& gpus() const { return gpus_; }
    std::optional<DeviceId> find(std::string_view name) const;
    // Node template instances and generated fabrics, in declaration order.
    const std::vector<Instance>& instances() const { return instances_; }
    const std::vector<FabricInfo>& fabrics() const { return fabrics_; }

    std::size_t channel_count() const { return 2 * links_.size(); }
    static LinkId link_of(ChannelId c) { return c / 2; }
    DeviceId channel_source(ChannelId c) const { return c % 2 == 0 ? links_[c / 2].a : links_[c / 2].b; }
    DeviceId channel_target(ChannelId c) const { return c % 2 == 0 ? links_[c / 2].b : links_[c / 2].a; }

private:
    std::string name_, source_;
    std::vector<Device> devices_;
    std::vector<Link> links_;
    std::vector<DeviceId> gpus_;
    std::vector<Instance> instances_;
    std::vector<FabricInfo> fabrics_;
    std::unordered_map<std::string, DeviceId> by_name_;
    Graph graph_;
};

}  // namespace collsim
