#pragma once
// Loads a workload trace in any format collsim reads, told apart by content:
// Chakra in any of its forms (chakra_trace.hpp: ET protobuf, Chakra JSON,
// PyTorch execution traces, one NAME.N file per rank), a Kineto Chrome trace
// ("traceEvents"), otherwise the native format (YAML or JSON). A directory
// holds one file per rank (Kineto: any names, the rank from distributedInfo).
// Files may be gzip-compressed.
#include <string>

#include "sim/replay/trace.hpp"

namespace collsim {

struct TraceImportOptions {
    // Several rank files that are not the whole job are replicated to its
    // world size (assemble_trace) rather than refused.
    bool ranks_present = false;
};

Trace load_any_trace(const std::string& path, const TraceImportOptions& options = {});

}  // namespace collsim
