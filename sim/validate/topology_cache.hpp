#pragma once
// Topologies loaded once per file, each with its Routes: a validation run
// predicts hundreds of rows on a handful of machines, and Routes caches the
// path search that every prediction on a machine shares.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/hw/routes.hpp"
#include "sim/hw/topology.hpp"

namespace collsim {

class TopologyCache {
public:
    // `settings`: --set changes made to every file loaded.
    explicit TopologyCache(std::vector<std::string> settings = {}) : settings_(std::move(settings)) {}

    struct Entry {
        // Loads in place: copying a Boost graph is needless work.
        Entry(const std::string& path, const std::vector<std::string>& settings);
        Topology topo;
        Routes routes;  // refers to topo: entries never move
    };

    // Loads the file the first time; throws what load_topology throws.
    Entry& get(const std::string& path);
    const std::vector<std::string>& settings() const { return settings_; }

private:
    std::vector<std::string> settings_;
    std::map<std::string, std::unique_ptr<Entry>> entries_;
};

}  // namespace collsim
