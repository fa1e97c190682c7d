#pragma once
#include <string>

#include "sim/hw/topology.hpp"

namespace collsim {

// Parse, validate, build. Every problem found in one pass is reported together
// as InputErrors, each with file:line:column, the field and what was expected.
Topology load_topology(const std::string& path);
Topology parse_topology(const std::string& yaml_text, const std::string& name);

}  // namespace collsim
