#pragma once
// The result of a collective size sweep, in nccl-tests' shape.
#include <optional>
#include <string>
#include <vector>

#include "sim/core/units.hpp"

namespace collsim {

// A hang as a report shows it: names, not ids.
struct HangInfo {
    Time at;
    bool timed_out = false;
    std::size_t steps_done = 0, steps_total = 0;
    std::vector<int> waiting_ranks;
    std::vector<std::string> dead_links;  // "a->b" per dead direction
};

struct CollRow {
    Bytes size;
    int64_t count = 0;
    std::string type;
    Time time;
    double algbw_GBps = 0;
    double busbw_GBps = 0;
    std::string algo, proto;  // what ran at this size (differs by size under auto)
    int channels = 0;
    std::optional<HangInfo> hang;  // the collective never finished
};

struct CollReport {
    std::string op, algo, proto, topology, topology_file;
    int ranks = 0;
    std::vector<CollRow> rows;
};

// algbw = size / time; busbw = algbw x factor (nccl-tests doc/PERFORMANCE.md).
CollRow make_row(Bytes size, int64_t count, std::string type, Time time, double busbw_factor);

std::string render_table(const CollReport& r);
std::string render_json(const CollReport& r);
std::string render_csv(const CollReport& r);

}  // namespace collsim
