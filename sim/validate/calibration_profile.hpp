#pragma once
// A calibration profile on disk: the YAML form of a Calibration, written by
// `collsim calibrate` and read by every command that takes --calibration.
//
//   collsim_calibration: 1                  # format version
//   nccl_version: 2.29.3                    # release of the logs it was fitted to
//   fitted_from: [a.csv, b.log]
//   bandwidth_efficiency: {nvlink: 0.93, pci: 1, net: 1}   # x NCCL's own link figures
//   p2p_bandwidth_efficiency: 1             # x the links, for AllToAll and sends
//   nvls_bandwidth_efficiency: 1            # x NCCL's NVLS rate, in place of nvlink
//   hop_latency_delta: {nvlink: -1.2us, pci: 0s, net: 0s}  # added to every per-step latency
//   base_latency:                           # replaces NCCL's launch latency
//     - {family: ring, proto: simple, latency: 22.5us}          # every collective
//     - {op: allgather, family: ring, proto: ll, latency: 9us}  # this one only
//   size_corrections:                       # multiplies predicted times in [from, to)
//     - {from: 0, to: 64K, factor: 1.08}
#include <string>
#include <string_view>

#include "sim/model/calibration.hpp"

namespace collsim {

// Parse and validate, collecting every error (InputErrors, each with
// file:line:column, the field, what was expected and what was found).
Calibration load_calibration(const std::string& path);
Calibration parse_calibration(const std::string& yaml_text, const std::string& name);

// The profile as YAML; `comment` lines (fit quality, the command) go on top.
std::string render_calibration(const Calibration& c, const std::string& comment = {});

std::string_view to_string(NcclFamily f);
std::optional<NcclFamily> nccl_family_from(std::string_view s);

// Bounds that keep a profile physical; calibrate fits within them too.
inline constexpr double kMinEfficiencyFactor = 0.05;
inline constexpr double kMaxEfficiencyFactor = 2.0;
inline constexpr double kMinSizeFactor = 0.1, kMaxSizeFactor = 10.0;

}  // namespace collsim
