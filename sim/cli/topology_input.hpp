#pragma once
#include <string>

#include "sim/hw/topology.hpp"

namespace collsim {

// A --topology argument: schema-v1 YAML, or NCCL topology XML imported on
// the fly, each guess the import made printed to stderr as a note.
Topology load_cli_topology(const std::string& path);

}  // namespace collsim
