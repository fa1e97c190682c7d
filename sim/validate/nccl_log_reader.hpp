#pragma once
// Raw nccl-tests stdout (all_reduce_perf, all_gather_perf, ...): the old
// layout (no version line, `error` column, no root column) and the new one
// (`# nccl-tests version`, `root` and `#wrong` columns), NCCL INFO/WARN lines
// interleaved, up to the `# Avg bus bandwidth` footer.
#include <string>

#include "sim/validate/measurement.hpp"

namespace collsim {

// Throws InputError with the line of the first problem: a second run in the
// same file, a row that does not fit the table header, a log that ends before
// its footer, a failed data check.
Measurement parse_nccl_log(const std::string& text, const std::string& name);

}  // namespace collsim
