#pragma once
#include <optional>

#include "sim/core/units.hpp"

namespace collsim {

// Per-direction bandwidth of a PCIe link from its generation and lane count:
// transfer rate per lane x line-code efficiency x lanes. nullopt for an unknown
// generation. Lane counts are checked by the caller.
std::optional<Bandwidth> pcie_bandwidth(int gen, int lanes);
bool valid_pcie_lanes(int lanes);

}  // namespace collsim
