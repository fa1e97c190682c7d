#pragma once
// The native trace format (workloads/README.md): YAML for hand-written traces,
// JSON for generated ones (JSON is read by the same YAML parser, so both give
// errors with line and column). Parse, validate, build: every problem found is
// reported together as InputErrors.
#include <string>

#include "sim/replay/trace.hpp"

namespace collsim {

Trace load_trace(const std::string& path);
Trace parse_trace(const std::string& text, const std::string& name);

}  // namespace collsim
