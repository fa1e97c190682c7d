#pragma once
#include <string>
#include <vector>

#include "sim/hw/topology.hpp"

namespace collsim {

// Parse, validate, build. Every problem found in one pass is reported together
// as InputErrors, each with file:line:column, the field and what was expected.
// `notes` given: NCCL topology XML is read too (imported as `topo import`
// does, with a note per guess appended); without, it is refused with a
// pointer to `topo import`. Any other format is refused, named. `settings`
// (`--set PATH=VALUE`, topology_settings.hpp) change the file's YAML (or the
// YAML an XML import writes) before it is validated.
Topology load_topology(const std::string& path, std::vector<std::string>* notes = nullptr,
                       const std::vector<std::string>& settings = {});
Topology parse_topology(const std::string& yaml_text, const std::string& name);

}  // namespace collsim
