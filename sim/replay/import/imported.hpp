#pragma once
// What an importer makes of one rank's file: its program (ops on streams named
// by the importer), the communicators its collectives use with this rank's
// group in each, and notes on what it had to assume. assemble_trace joins the
// ranks into one Trace.
#include <string>
#include <utility>
#include <vector>

#include "sim/replay/trace.hpp"

namespace collsim {

struct ImportedComm {
    std::string name;
    std::vector<int> group;  // ranks, ascending; empty: every rank
};

struct ImportedProgram {
    int rank = 0, world = 1;
    std::vector<std::string> streams;  // TraceOp::stream indexes these
    std::vector<ImportedComm> comms;   // CollectiveSpec::comm indexes these
    Program program;
    std::vector<std::string> notes;
};

// One rank per program. A single program of a job with more ranks is run by
// every rank (an SPMD assumption, stated in the trace's notes).
Trace assemble_trace(std::vector<ImportedProgram> ranks, const std::string& name, const std::string& source);

// "aten::mm", "ncclKernel_AllReduce_RING_LL_Sum_float": a name short enough for
// reports, without the argument list, and unique with its id appended.
std::string short_op_name(std::string_view name, uint64_t id);

}  // namespace collsim
