#pragma once
// Two runs side by side, the what-if answer in one table (issue 26):
// a collective's size sweep, or a replayed step, on variant A and variant B
// (another topology, --set, calibration or algorithm), with B's time over
// A's and a verdict per row.
#include <optional>
#include <string>
#include <vector>

#include "sim/report/coll_report.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/replay_report.hpp"

namespace collsim {

// One link direction among a side's busiest.
struct CompareLink {
    std::string name;
    double average_GBps = 0;
    double utilisation = 0;  // a fraction of the direction's capacity
};

// A figure both sides have: algbw, busbw, or a share of the step.
struct CompareValue {
    std::string name;
    std::optional<double> a, b;  // none: that side hung (or its layout does not fit)
    bool share = false;          // a fraction, shown as a percentage
};

struct CompareRow {
    std::string key;                   // "1073741824" (bytes) or "step"
    std::optional<double> a_us, b_us;  // none: that side hung
    std::string a_algo, b_algo;        // what ran (a collective sweep's rows)
    std::vector<CompareValue> values;
    std::vector<CompareLink> a_links, b_links;  // busiest first
    std::optional<double> ratio;                // b_us / a_us
    std::string verdict;  // B against A: faster, slower, same, or which hangs
};

struct Comparison {
    std::string kind;              // "coll" or "replay"
    std::string what;              // "allreduce, 16 ranks" / the trace
    std::string a_label, b_label;  // what each variant is
    double threshold = 0.02;       // |B/A - 1| at most this is "same"
    std::vector<CompareRow> rows;
};

// "faster" when B takes less than (1 - threshold) of A's time, "slower" above
// (1 + threshold), else "same"; a side that hangs is named.
std::string compare_verdict(std::optional<double> a_us, std::optional<double> b_us, double threshold);

// Row by row, the sizes in the order both swept (the same size list).
void add_coll_rows(Comparison& c, const CollReport& a, const CollReport& b);
// One row for the step: its time and its breakdown (average shares of
// compute, exposed and overlapped communication, idle), the busiest links;
// then a row for each of A's `collectives` longest collectives (latency, last
// arrival to end) beside the same collective of B. A side that hung
// (`a`/`b` null) has no figures.
void add_replay_rows(Comparison& c, const ReplayReport* a, const ReplayReport* b, std::size_t top_links,
                     std::size_t collectives);

std::string render_compare_table(const Comparison& c);
std::string render_compare_json(const Comparison& c);
std::string render_compare_csv(const Comparison& c);
// The page of compare --html: B/A per row as bars from 1, the table, each
// side's busiest links, then `p`.
std::string render_compare_html(const Comparison& c, const HtmlProvenance& p);

}  // namespace collsim
