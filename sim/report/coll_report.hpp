#pragma once
// The result of a collective size sweep, in nccl-tests' shape (its
// out-of-place columns: size, count, type, redop, root, time, algbw, busbw,
// #wrong), so a run can be diffed against an nccl-tests log; collsim's own
// columns (what ran: algorithm, protocol, channels) follow.
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

// What `coll --explain` adds to a row: both models' times and why they
// differ. With --model analytical alone, only the closed form's terms.
struct CollExplain {
    std::optional<Time> flow;
    Time analytical, latency, bandwidth;  // the closed form and its two terms
    std::string why;
};

// One of the busiest link directions at one size (`coll --links N`).
struct CollLink {
    std::string name;  // "a->b"
    Bytes bytes;       // carried over the collective
    double average_GBps = 0;  // bytes over the collective's time
    double utilisation = 0;   // average over the direction's simulated capacity (after link efficiency)
    uint32_t flows = 0;       // the most flows on it at once
    bool between_switches = false;  // network switch to network switch (a fat-tree's leaf-spine tiers)
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
    std::string redop = "none";    // "sum" for operations that reduce, as nccl-tests prints
    int root = -1;                 // -1 for operations without a root
    std::optional<CollExplain> explain;
    std::string model = "flow";        // the tier that timed it: flow, fluid or analytical
    std::vector<std::string> reductions;  // what that tier simplified, in words
    // The busiest link directions, most bytes first; set where links were
    // asked for and the time came from the flow simulation.
    std::optional<std::vector<CollLink>> links;
};

// A size range over which the tuner keeps one algorithm and protocol; the
// boundaries between spans are its crossovers.
struct TunerSpan {
    Bytes from, to;  // both sizes where the tuner was asked
    std::string algo, proto;
};

struct CollReport {
    std::string op, algo, proto, topology, topology_file;
    int ranks = 0;
    std::vector<CollRow> rows;
    std::string model = "flow";
    std::vector<TunerSpan> tuner_spans;  // with --explain under auto: every power of two of the sweep
};

// algbw = size / time; busbw = algbw x factor (nccl-tests doc/PERFORMANCE.md).
CollRow make_row(Bytes size, int64_t count, std::string type, Time time, double busbw_factor);

// The table lists each size's busiest links in a section after it, every line
// a comment ('#'), so the table itself reads as nccl-tests' does.
std::string render_table(const CollReport& r);
// Rows carry their busiest links as "links"; CSV leaves them out (one line per size).
std::string render_json(const CollReport& r);
std::string render_csv(const CollReport& r);

}  // namespace collsim
