#pragma once
// Per-device and per-link overrides by name or pattern, applied after a
// topology body is expanded: a degraded cable, a slower NIC, a PCIe x8 slot in
// one node. An override that matches nothing is an error (a typo would
// otherwise silently change nothing).
#include <string>

#include "sim/hw/fragment.hpp"

namespace collsim {

void apply_overrides(YamlFields& f, FragmentBuilder& b, const YAML::Node& list, const std::string& path);

}  // namespace collsim
