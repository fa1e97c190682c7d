#pragma once
// The CSV form of ../shared/nccl-data: '# key: value' header lines naming the
// source, then `size_bytes,count,type,redop,oop_time_us,oop_algbw_GBps,
// oop_busbw_GBps,ip_time_us,ip_algbw_GBps,ip_busbw_GBps` and one row per size;
// an empty field is a value the source did not print.
#include <string>

#include "sim/validate/measurement.hpp"

namespace collsim {

// Throws InputError with the line and column of the first bad field.
Measurement parse_nccl_csv(const std::string& text, const std::string& name);

}  // namespace collsim
