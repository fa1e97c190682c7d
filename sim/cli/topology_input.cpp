#include "sim/cli/topology_input.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "sim/hw/topology_loader.hpp"

namespace collsim {

Topology load_cli_topology(const std::string& path, const std::vector<std::string>& settings) {
    std::vector<std::string> notes;
    Topology topo = load_topology(path, &notes, settings);
    for (const std::string& n : notes) fmt::print(stderr, "collsim: note: {}\n", n);
    return topo;
}

void add_set_option(CLI::App* c, std::vector<std::string>& settings) {
    c->add_option("--set", settings,
                  "change a field of the topology file before it is read, e.g. fabrics.ib.oversubscription=2:1, "
                  "nodes.count=256, 'links[node*.gpu*--node*.pcie*].lanes=8' (repeatable)")
        ->take_all()
        ->allow_extra_args(false);
}

}  // namespace collsim
