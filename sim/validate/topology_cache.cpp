#include "sim/validate/topology_cache.hpp"

#include "sim/hw/topology_loader.hpp"

namespace collsim {

TopologyCache::Entry::Entry(const std::string& path, const std::vector<std::string>& settings)
    : topo(load_topology(path, nullptr, settings)), routes(topo) {}

TopologyCache::Entry& TopologyCache::get(const std::string& path) {
    auto it = entries_.find(path);
    if (it == entries_.end()) it = entries_.emplace(path, std::make_unique<Entry>(path, settings_)).first;
    return *it->second;
}

}  // namespace collsim
