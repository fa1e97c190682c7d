#pragma once
// Native traces in JSON read in one streaming pass (JsonStream): each op is
// resolved as it is read and its node dropped, so that memory follows the
// resolved trace and not the document (which costs ~4.6 KiB an op).
//
// Streaming needs the header first: `name`, `ranks`, `gpu` and
// `communicators`, if given, come before `program`/`programs` (as generated
// traces write them), and the trace has no `overrides` (they re-read the ops
// they change). A trace that is not so is not streamed: the result says why,
// and the caller reads it as a document, within the document size limit.
#include <cstdint>
#include <optional>
#include <string>

#include "sim/core/json_stream.hpp"
#include "sim/core/limits.hpp"
#include "sim/replay/trace.hpp"

namespace collsim {

struct StreamedTrace {
    std::optional<Trace> trace;
    bool kineto = false;      // a top-level traceEvents: a Kineto trace, for the importer
    std::string not_streamed;  // otherwise, why there is no trace
};

// Throws InputError(s) as the document loader does, located in the stream;
// past `max_ops` ops (the native trace op limit; tests pass less) at the op.
StreamedTrace stream_json_trace(JsonStream& in, int64_t max_ops = limits::kMaxNativeTraceOps);

}  // namespace collsim
