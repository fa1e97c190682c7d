#pragma once
// `collsim topo dot`: the topology as a Graphviz graph. With `collapse`, each
// node template instance is drawn as one vertex and the links between two
// vertices as one edge labelled with their count and summed bandwidth, so a
// 16,384-node cluster stays drawable.
#include <string>

#include "sim/hw/topology.hpp"

namespace collsim {

std::string render_dot(const Topology& topo, bool collapse);

}  // namespace collsim
