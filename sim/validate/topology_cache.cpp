#include "sim/validate/topology_cache.hpp"

#include "sim/hw/topology_loader.hpp"

namespace collsim {

TopologyCache::Entry::Entry(const std::string& path) : topo(load_topology(path)), routes(topo) {}

TopologyCache::Entry& TopologyCache::get(const std::string& path) {
    auto it = entries_.find(path);
    if (it == entries_.end()) it = entries_.emplace(path, std::make_unique<Entry>(path)).first;
    return *it->second;
}

}  // namespace collsim
