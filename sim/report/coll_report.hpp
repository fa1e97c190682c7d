#pragma once
// The result of a collective size sweep, in nccl-tests' shape (its
// out-of-place columns: size, count, type, redop, root, time, algbw, busbw,
// #wrong), so a run can be diffed against an nccl-tests log.
#include <optional>
#include <string>
#include <vector>

#include "sim/core/units.hpp"

namespace collsim {

// What `coll --explain` adds to a row: both models' times and why they differ.
struct CollExplain {
    Time flow;
    Time analytical, latency, bandwidth;  // the closed form and its two terms
    std::string why;
};

struct CollRow {
    Bytes size;
    int64_t count = 0;
    std::string type;
    std::string redop;  // "sum", or "none" for operations that do not reduce
    int root = -1;      // -1 for operations without a root, as nccl-tests prints
    Time time;
    double algbw_GBps = 0;
    double busbw_GBps = 0;
    std::optional<CollExplain> explain;
};

struct CollReport {
    std::string op, algo, proto, topology, topology_file;
    std::string model = "flow";
    int ranks = 0;
    int channels = 0;
    std::vector<CollRow> rows;
};

// algbw = size / time; busbw = algbw x factor (nccl-tests doc/PERFORMANCE.md).
CollRow make_row(Bytes size, int64_t count, std::string type, Time time, double busbw_factor);

std::string render_table(const CollReport& r);
std::string render_json(const CollReport& r);
std::string render_csv(const CollReport& r);

}  // namespace collsim
