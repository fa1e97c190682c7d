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

// `ranks_present`: a set of fewer files than the job's ranks is replicated
// to them rather than refused (assemble_trace).
std::optional<Trace> load_chakra_trace(const std::string& path, bool ranks_present = false);

}  // namespace collsim
