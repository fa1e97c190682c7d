#pragma once
// Topologies loaded once per file, each with its Routes: a validation run
// predicts hundreds of rows on a handful of machines, and Routes caches the
// path search that every prediction on a machine shares.
#include <map>
#include <memory>
#include <string>

#include "sim/hw/routes.hpp"
#include "sim/hw/topology.hpp"

namespace collsim {

class TopologyCache {
public:
    struct Entry {
        // Loads in place: copying a Boost graph is needless work.
        explicit Entry(const std::string& path);
        Topology topo;
        Routes routes;  // refers to topo: entries never move
    };

    // Loads the file the first time; throws what load_topology throws.
    Entry& get(const std::string& path);

private:
    std::map<std::string, std::unique_ptr<Entry>> entries_;
};

}  // namespace collsim
