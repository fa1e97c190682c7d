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

// The most ranks an imported job may have (its world_size): every rank gets a
// program, so this bounds the memory a trace can ask for.
inline constexpr int kMaxImportedRanks = 1 << 20;

struct ImportedComm {
    std::string name;
    std::vector<int> group;  // ranks, ascending; empty: every rank
};

struct ImportedProgram {
    int rank = 0, world = 1;
    SourceLocation world_at;  // where the file states its world size (file empty: it does not)
    std::vector<std::string> streams;  // TraceOp::stream indexes these
    std::vector<ImportedComm> comms;   // CollectiveSpec::comm indexes these
    Program program;
    std::vector<std::string> notes;
    std::vector<UnsizedCall> unsized;
};

// One rank per program. A single program of a job with more ranks is run by
// every rank (an SPMD assumption, stated in the trace's notes). Several
// programs must be the whole job (one per rank of their world size), unless
// `ranks_present`: then each missing rank runs the program of the nearest
// present rank below it (or the lowest), as the notes say.
Trace assemble_trace(std::vector<ImportedProgram> ranks, const std::string& name, const std::string& source,
                     bool ranks_present = false);

// Throws an InputError at `file` when `ops`, the ops imported so far up to and
// including that file, are more than limits::kMaxTraceOps.
void check_imported_ops(std::size_t ops, const std::string& file);

// "aten::mm", "ncclKernel_AllReduce_RING_LL_Sum_float": a name short enough for
// reports, without the argument list, and unique with its id appended.
std::string short_op_name(std::string_view name, uint64_t id);

}  // namespace collsim
