#pragma once
// What every JSON output says about how it was made, so a result file can be
// traced back to what produced it: collsim's version, the topology
// (its path and a hash of its text), the calibration, the seed and the model
// tier asked for. A field that does not apply to a command is null. A
// topology changed by --set lists the settings (its hash is of the file).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace collsim {

struct Provenance {
    std::string topology{};     // path; empty: none
    std::string calibration{};  // path; empty: the defaults, from the specs
    bool calibrated = false;    // whether the command takes a calibration at all
    std::optional<uint64_t> seed{};
    std::string model{};        // the tier asked for; empty: none applies
    std::vector<std::string> settings{};  // --set changes to the topology, in order
};

// `json` (an object) with "collsim_version" and "inputs" ahead of its own keys.
std::string stamp_json(const std::string& json, const Provenance& p);

}  // namespace collsim
