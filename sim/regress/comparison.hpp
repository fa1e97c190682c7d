#pragma once
// A run of a suite against its baseline: per entry, every metric that moved
// and by how much, hangs, entries added or gone, inputs that changed.
// Times and memory are worse higher; bandwidths (..._GBps), rates
// (..._per_s) and mfu worse lower.
#include <optional>
#include <string>
#include <vector>

#include "sim/regress/baseline.hpp"

namespace collsim {

struct MetricChange {
    std::string metric{};
    double before = 0, now = 0;
    double worse = 0;  // relative: +0.05 is 5% worse, -0.05 5% better (inf from 0)
    bool regression = false;  // worse by more than the entry's tolerance
};

struct EntryComparison {
    std::string name{};
    double tolerance = 0;
    bool added = false, gone = false;
    bool hangs = false;       // hangs now, and the baseline did not say it would
    bool still_hangs = false;  // hangs, as the baseline recorded
    bool unhung = false;      // the baseline hung, this run finished
    std::string hang{};
    std::vector<MetricChange> changes{};  // the metrics that moved, either way
    std::vector<std::string> metrics_added{}, metrics_gone{};
    std::vector<std::string> ran_differently{};  // "1M: tree ll 8ch flow (was ring ...)"

    bool regressed() const;  // a regression over tolerance, or a new hang
    bool improved() const;   // a metric better, or a hang gone
    bool moved() const;      // anything differs from the baseline at all
    // regressed, or with `exact` moved: a failed CI check.
    bool failed(bool exact) const;
};

struct Comparison {
    std::vector<EntryComparison> entries{};  // in the run's order, then the baseline's gone ones
    std::vector<std::string> inputs_changed{};  // "path: <old> -> <new>" or "path: new"
    bool failed(bool exact) const;
};

// `tolerance`: every entry's unless its own (EntryResult::tolerance) says otherwise.
Comparison compare_runs(const Baseline& before, const Baseline& now, double tolerance);

}  // namespace collsim
