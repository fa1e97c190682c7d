#pragma once
// Why a simulation (chunk-level or fluid) and the closed form disagree, in
// words for `coll --explain`: within 2% they agree; otherwise the links that
// made the difference are named with the most flows they carried at once and
// how busy they were. When the simulation is slower, flows shared links the
// closed form does not expect (contention): the links that carried several
// flows at once, most first. When it is faster, the algorithm overlaps work
// that its closed form adds up, or its flows met on links less often than the
// closed form charges: the busiest links, by utilisation, say where.
#include <string>
#include <string_view>
#include <vector>

#include "sim/exec/simulate.hpp"
#include "sim/hw/topology.hpp"

namespace collsim {

// `tier`: the simulation's tier name (flow, fluid); `traffic`: what each link
// direction carried in it, over its time `simulated`.
std::string describe_difference(const Topology& topo, std::string_view tier, Time simulated, Time closed,
                                const std::vector<LinkTraffic>& traffic);

}  // namespace collsim
