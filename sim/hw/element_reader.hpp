#pragma once
// Reading one device or one link from YAML, with every problem recorded as a
// located error. Shared by explicit lists, node templates and fabric specs.
#include <functional>
#include <optional>
#include <string>

#include "sim/core/yaml_fields.hpp"
#include "sim/hw/device.hpp"
#include "sim/hw/link.hpp"

namespace collsim {

std::optional<Device> read_device(YamlFields& f, const YAML::Node& n, const std::string& path);

// A link's kind, bandwidth (or PCIe gen + lanes) and latency; the ends are
// left unset. The caller has checked the keys.
std::optional<Link> read_link_properties(YamlFields& f, const YAML::Node& n, const std::string& path);

// A link between two named devices; `find` resolves a name to an id.
std::optional<Link> read_link(YamlFields& f, const YAML::Node& n, const std::string& path,
                              const std::function<std::optional<DeviceId>(const std::string&)>& find);

}  // namespace collsim
