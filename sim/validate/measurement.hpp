#pragma once
// One nccl-tests run as measured on real hardware: the table of sizes and
// times that all_reduce_perf and its siblings print, read either from their
// raw stdout or from the CSV form of ../shared/nccl-data. Readers check the
// table for consistency and throw InputError (file:line:column) on anything
// broken, truncated or ambiguous: never a silent partial read.
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "sim/exec/collective.hpp"
#include "sim/validate/nccl_env.hpp"

namespace collsim {

// One column group of a row: nccl-tests prints out-of-place, then in-place.
struct PlacementResult {
    std::optional<double> time_us, algbw_GBps, busbw_GBps;
};

struct MeasuredRow {
    Bytes size;                    // the size column: for AllGather, ReduceScatter and AllToAll the total buffer
    std::optional<int64_t> count;  // elements, as printed
    std::string type;              // float, half, ...
    std::array<PlacementResult, 2> result;  // [0] out-of-place, [1] in-place
    int line = 0;                  // where the row is in its file
};

struct Measurement {
    std::string file;
    std::optional<CollOp> op;  // nullopt when neither the log nor its name says
    std::string test_name;     // what named the collective, e.g. "all_reduce_perf"
    int ranks = 0;             // from the device list; 0 when the log lists none
    int hosts = 0;             // distinct hosts ('Rank N ... on HOST') in the device list; 0: none listed
    std::string nccl_version;  // e.g. "2.29.3"; empty when not printed
    std::optional<double> avg_busbw_GBps;  // the '# Avg bus bandwidth' footer
    // '# key: value' header lines of the CSV form (source, gpus, env, ...).
    std::vector<std::pair<std::string, std::string>> header;
    std::vector<MeasuredRow> rows;
    // GPUs that one nccl-tests thread drives (-g N, printed as 'nGpus N'):
    // the thread launches each collective on them one after another, which
    // bounds how fast small collectives can follow each other. nullopt where
    // the log does not say.
    std::optional<int> gpus_per_thread{};
    // Where the header gave a second, different figure (free text quoting
    // another run, say): the run's -g is then unknown until declared.
    std::optional<SourceLocation> gpus_per_thread_conflict{};
    // NCCL_* settings the log records (the CSV's '# env:' line, NCCL's 'set
    // by environment' lines), in the order it states them.
    std::vector<NcclSetting> nccl_env{};
};

// Reads either form, telling them apart by content. Throws InputError.
Measurement read_measurement(const std::string& path);
Measurement parse_measurement(const std::string& text, const std::string& name);

// The collective a test or file name refers to ("all_reduce_perf",
// "nccl_allgather.log", "reduce_scatter"); nullopt if it names none. Throws
// InputError (at `where`) for nccl-tests collectives collsim does not model
// (gather, scatter, hypercube).
std::optional<CollOp> coll_op_named_in(const std::string& text, const SourceLocation& where);

// The time to compare against: the mean of the out-of-place and in-place
// times where printed (the same operation measured twice), else derived from
// a printed bus bandwidth (time = size x factor / busbw) when that figure has
// at most 1% rounding error. nullopt when the row has no usable time.
std::optional<double> measured_time_us(const MeasuredRow& row, CollOp op, int ranks);

// The rank count that the bus/algorithm bandwidth ratio implies, from the row
// where both are largest (the most printed digits); nullopt where the ratio
// carries no rank information (Broadcast, Reduce, SendRecv) or no row has it.
std::optional<int> ranks_from_bandwidths(const Measurement& m, CollOp op);

// Checks the rows against the collective and a rank count: sizes never fall;
// size = count x element size (x ranks for AllGather, ReduceScatter and
// AllToAll); busbw / algbw matches nccl-tests' factor. Throws InputError at
// the first offending row.
void check_measurement(const Measurement& m, CollOp op, int ranks);

}  // namespace collsim
