#pragma once
// Loads a Chakra trace in any of its forms: ET protobuf (.et), Chakra's JSON
// ("workload_graph") and the PyTorch execution trace Chakra starts from
// ("schema", "nodes"); a file per rank (trace_set.hpp), gzip allowed.
// Returns nullopt when `path` is none of these (the caller tries the other
// formats); a folder or set mixing these with other files is an InputError.
#include <optional>
#include <string>

#include "sim/replay/trace.hpp"

namespace collsim {

std::optional<Trace> load_chakra_trace(const std::string& path);

}  // namespace collsim
