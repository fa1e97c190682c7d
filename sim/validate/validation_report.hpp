#pragma once
// A validation run as a table for people, stable JSON for scripts and CI,
// and CSV with one line per predicted row.
//
// JSON: {"calibration", "cross", "datasets": [{"file", "class", "op", "ranks", "nodes", "rows", "algo", "proto",
//   "latency_rows", "bandwidth_rows", "median_ape_latency_pct", "median_ape_bandwidth_pct",
//   "p90_ape_latency_pct", "p90_ape_bandwidth_pct", "median_ape_pct", "geomean_ape_pct",
//   "fitted": {...}, "out_of_sample": {...}}],          <- these two with --cross only
//   "not_covered": [{"file", "op", "ranks", "reason"}],
//   "overall": {"given": {...}, "in_sample": {...}, "out_of_sample": {...} or null,
//               "single_node": {"given", "in_sample", "out_of_sample"}, "multi_node": {...the same},
//               "nvswitch_8gpu_allreduce": {...the same}: AllReduce on one server's 8 NVSwitch GPUs}}
// where {...} holds "rows", "latency_rows", "bandwidth_rows" and the error keys above; a
// percentage is null where no row falls in its size range.
#include <string>

#include "sim/validate/validation.hpp"

namespace collsim {

std::string render_validation_table(const ValidationResult& v, const std::string& source);
std::string render_validation_json(const ValidationResult& v);
std::string render_validation_csv(const ValidationResult& v);

}  // namespace collsim
