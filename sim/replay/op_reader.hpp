#pragma once
// Reads one op of a native trace. The op's kind follows from its keys:
//   compute     {name, stream, duration} or {name, stream, flops, bytes, dtype};
//               host: true for CPU-side work (takes time, is not GPU compute)
//   collective  {name, stream, collective: allreduce, bytes, dtype, comm, split, root}
//   send/recv   {name, stream, send: next | prev | +k | -k | RANK, comm, bytes}
// `after` names ops of the same program; they are resolved by the loader.
#include <optional>
#include <string>
#include <vector>

#include "sim/core/yaml_fields.hpp"
#include "sim/replay/trace.hpp"

namespace collsim {

// A name in an op's `after`, kept as text and place (not as its node) so that
// a streamed trace holds no node past its op.
struct AfterName {
    std::string name;
    SourceLocation where;
};

struct OpDraft {
    TraceOp op;
    std::vector<AfterName> after;
};

// Communicators must already be in `trace`; new stream names are added to it.
std::optional<OpDraft> read_op(YamlFields& f, const YAML::Node& node, const std::string& path, Trace& trace);

}  // namespace collsim
