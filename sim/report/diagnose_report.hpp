#pragma once
#include <string>

#include "sim/faults/diagnose.hpp"

namespace collsim {

std::string render_diagnosis_table(const Diagnosis& d);
// {"ranks", "collectives", "verdict", "skew_us": {"median", "p99", "max"},
//  "culprits": [{"rank", "confidence", "late_collectives", "mean_lateness_us",
//  "mean_sigmas", "evidence"}], "shared": [{"device", "ranks"}]}
std::string render_diagnosis_json(const Diagnosis& d);

}  // namespace collsim
