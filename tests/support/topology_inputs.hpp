#pragma once
// Topologies that tests read: the shipped DGX H100, and the error a bad
// topology's text gives.
#include <string>

#include "sim/hw/topology.hpp"

namespace collsim::test {

// topologies/dgx-h100.yaml, loaded once.
const Topology& dgx_h100();

// The input error that reading `yaml` as a topology file t.yaml throws, or
// "no error".
std::string topology_error(const std::string& yaml);

}  // namespace collsim::test
