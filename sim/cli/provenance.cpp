#include "sim/cli/provenance.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/core/fnv1a.hpp"
#include "sim/core/text_file.hpp"

namespace collsim {

std::string stamp_json(const std::string& json, const Provenance& p) {
    using nlohmann::ordered_json;
    const ordered_json body = ordered_json::parse(json);
    ordered_json out;
    // The version alone, not the commit (--version gives both): the same
    // inputs give the same output at every commit of a release.
    out["collsim_version"] = COLLSIM_VERSION;
    ordered_json inputs;
    inputs["topology"] = p.topology.empty() ? ordered_json()
                                            : ordered_json{{"path", p.topology},
                                                           {"fnv1a64", fnv1a64_hex(read_text_file(p.topology))}};
    if (!p.settings.empty()) inputs["topology"]["settings"] = p.settings;
    inputs["calibration"] = !p.calibrated ? ordered_json() : ordered_json(p.calibration.empty() ? "defaults" : p.calibration);
    inputs["seed"] = p.seed ? ordered_json(*p.seed) : ordered_json();
    inputs["model"] = p.model.empty() ? ordered_json() : ordered_json(p.model);
    out["inputs"] = inputs;
    for (const auto& [key, value] : body.items()) out[key] = value;
    return out.dump(2) + "\n";
}

}  // namespace collsim
