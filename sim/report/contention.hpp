#pragma once
// Why a flow simulation and a closed form disagree, in words for `coll
// --explain`: within 2% they agree; when the flow is slower, flows shared
// links the closed form does not expect (contention), and the busiest link
// directions say where; when it is faster, the algorithm overlaps work that
// its closed form adds up.
#include <string>
#include <vector>

#include "sim/hw/topology.hpp"

namespace collsim {

// peak[c]: the most sends in flight at once on link direction c.
std::string describe_difference(const Topology& topo, Time flow, Time closed, const std::vector<uint32_t>& peak);

}  // namespace collsim
