#pragma once
// `collsim topo dot`: the topology as a Graphviz graph. With `collapse`, each
// node template instance is drawn as one vertex and the links between two
// vertices as one edge labelled with their count and summed bandwidth; past a
// page's worth of vertices, alike ones are drawn as one (dot_grouping.hpp), so
// that `dot -Tsvg` draws a 16,384-node cluster too.
#include <string>

#include "sim/hw/topology.hpp"

namespace collsim {

std::string render_dot(const Topology& topo, bool collapse);

}  // namespace collsim
