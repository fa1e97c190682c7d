#pragma once
// Loads a workload trace in any format collsim reads, told apart by content:
// a Chakra JSON trace ("workload_graph"), a Kineto Chrome trace
// ("traceEvents"), otherwise the native format (YAML or JSON). A directory
// holds one file per rank (Chakra: NAME.RANK.json; Kineto: any names, the rank
// from distributedInfo). A Chakra file NAME.0.json also picks up its siblings
// NAME.1.json, ... when they exist. Files may be gzip-compressed.
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
