#pragma once
// The native trace format (workloads/README.md): YAML for hand-written traces,
// JSON for generated ones, read here as a whole document by the YAML parser
// (errors with line and column). Large JSON traces are streamed instead
// (trace_stream.hpp), into the same trace with the same errors. Parse,
// validate, build: every problem found is reported together as InputErrors.
#include <string>

#include "sim/replay/trace.hpp"

namespace collsim {

Trace load_trace(const std::string& path);
Trace parse_trace(const std::string& text, const std::string& name);

}  // namespace collsim
