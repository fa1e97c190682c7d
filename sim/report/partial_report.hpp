#pragma once
// The report of a run stopped before its end (--wall-limit), marked so that
// no script or reader takes it for the whole: tables and CSV open with a
// "# partial: ..." line, JSON gets "partial": true and what was done.
#include <cstdint>
#include <string>

namespace collsim {

struct PartialRun {
    std::string stopped_by;          // "--wall-limit 30s"
    uint64_t done = 0, total = 0;    // units of the run's work in the report, and in all
    std::string unit;                // "sizes", "rows", "ops"
};

// "# partial: stopped by --wall-limit 30s after 3 of 28 sizes\n"
std::string partial_line(const PartialRun& p);

// `report` as a renderer wrote it, marked. JSON (one object, dumped with an
// indent of 2 as every renderer here does): "partial": true and "stopped":
// {"by", "done", "total", "unit"} come first, the report's own fields after,
// unchanged. Table and CSV: partial_line() first.
std::string mark_partial(const std::string& report, const PartialRun& p, bool json);

}  // namespace collsim
