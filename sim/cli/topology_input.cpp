#include "sim/cli/topology_input.hpp"

#include <cstdio>
#include <vector>

#include <fmt/format.h>

#include "sim/hw/topology_loader.hpp"

namespace collsim {

Topology load_cli_topology(const std::string& path) {
    std::vector<std::string> notes;
    Topology topo = load_topology(path, &notes);
    for (const std::string& n : notes) fmt::print(stderr, "collsim: note: {}\n", n);
    return topo;
}

}  // namespace collsim
