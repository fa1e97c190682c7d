#include "sim/hw/topology.hpp"

namespace collsim {

Topology::Topology(std::string name, std::string source, std::vector<Device> devices, std::vector<Link> links,
                   std::vector<Instance> instances, std::vector<FabricInfo> fabrics)
    : name_(std::move(name)),
      source_(std::move(source)),
      devices_(std::move(devices)),
      links_(std::move(links)),
      instances_(std::move(instances)),
      fabrics_(std::move(fabrics)),
      graph_(devices_.size()) {
    by_name_.reserve(devices_.size());
    for (DeviceId i = 0; i < devices_.size(); ++i) {
        by_name_.emplace(devices_[i].name, i);
        if (devices_[i].kind == DeviceKind::gpu) gpus_.push_back(i);
    }
    for (LinkId l = 0; l < links_.size(); ++l) {
        boost::add_edge(links_[l].a, links_[l].b, EdgeData{2 * l}, graph_);
        boost::add_edge(links_[l].b, links_[l].a, EdgeData{2 * l + 1}, graph_);
    }
}

std::optional<DeviceId> Topology::find(std::string_view name) const {
    auto it = by_name_.find(std::string(name));
    if (it == by_name_.end()) return std::nullopt;
    return it->second;
}

}  // namespace collsim
