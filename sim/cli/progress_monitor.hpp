#pragma once
// Progress on stderr and --wall-limit, for the commands whose runs can be
// long (coll, replay, validate). The monitor watches the wall clock only from
// outside the simulation, through RunMonitor's polls: it can draw a line on
// stderr or stop the run, never change what the run computes, so stdout is
// the same with it, without it, and with stderr on a terminal or a file.
#include <chrono>
#include <mutex>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "sim/core/run_monitor.hpp"
#include "sim/report/partial_report.hpp"
#include "sim/report/progress_line.hpp"

namespace collsim {

struct ProgressOptions {
    std::string wall_limit;  // e.g. 30s, 2min; empty: none
    bool quiet = false;      // no progress on stderr
};

// --wall-limit and --quiet.
void add_progress_options(CLI::App* c, ProgressOptions& o);

class ProgressMonitor final : public RunMonitor {
public:
    // `command` opens each progress line ("collsim coll"). The wall clock
    // starts here. Throws InputError for a bad --wall-limit.
    ProgressMonitor(std::string command, const ProgressOptions& o);
    ~ProgressMonitor() override;
    ProgressMonitor(const ProgressMonitor&) = delete;
    ProgressMonitor& operator=(const ProgressMonitor&) = delete;

    // What to hand the run: nullptr under --quiet without --wall-limit, so
    // that nothing polls at all.
    RunMonitor* hook() { return active_ ? this : nullptr; }

    // Throws RunStopped once --wall-limit has passed (from every thread that
    // polls after that); otherwise draws the progress line when it is due.
    void poll() override;

    // Wipes the progress line; call before writing results to stdout, so on
    // a terminal they do not start behind it.
    void finish();

    // The report of a run that RunStopped ended: `done` of `total` units.
    PartialRun partial(uint64_t done, uint64_t total, std::string unit) const;

private:
    std::chrono::steady_clock::time_point start_;
    std::optional<std::chrono::nanoseconds> limit_;
    std::string limit_text_;
    bool show_ = false;    // progress goes to stderr
    bool active_ = false;  // something to show or to watch
    std::mutex draw_;      // one thread draws at a time; others skip their turn
    ProgressThrottle throttle_;
};

}  // namespace collsim
