#pragma once
// The progress line of a long run: what it says, and when it is due. The
// wall-clock time is passed in, never read here, so tests drive it with a
// clock of their own; writing the text to stderr is the caller's (sim/cli).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "sim/core/run_monitor.hpp"

namespace collsim {

// "3 of 28 sizes, simulated 1.23ms, 45.1M events/s, 12s elapsed, ETA ~40s".
// Parts without a figure are left out: the count without a total, the
// simulated time and rate without events, the rate when events_per_s < 0,
// the ETA without an estimate (it is a guess, hence the "~").
std::string format_progress(const RunMonitor::Counts& c, std::chrono::nanoseconds elapsed, double events_per_s,
                            std::optional<std::chrono::nanoseconds> eta);

// The wall time the units left will take: nullopt before the first is done,
// without a total, or for units of unknown cost. `in_stage`: since the stage began; `since_unit`: since
// the last unit was done, which took `last_unit`. Units alike: as long as
// those done, on average. Units rising: each at least as long as the last
// one (or the one running, if that has already taken longer), and never
// less than the average says.
std::optional<std::chrono::nanoseconds> estimate_left(const RunMonitor::Counts& c, std::chrono::nanoseconds in_stage,
                                                      std::chrono::nanoseconds since_unit,
                                                      std::chrono::nanoseconds last_unit);

// A wall-clock duration to the second: "7s", "3min 05s", "2h 04min".
std::string format_wall(std::chrono::nanoseconds d);

enum class ProgressStyle {
    terminal,  // one line redrawn in place (\r)
    log,       // a plain line now and then, for files and pipes
};

class ProgressThrottle {
public:
    // Runs shorter than this show nothing on a terminal: a progress line
    // that flashes and vanishes is noise.
    static constexpr std::chrono::milliseconds kTerminalDelay{2000};
    // Redraws: often enough to look live, rarely enough to cost nothing.
    static constexpr std::chrono::milliseconds kRedraw{250};
    // A log gets one line per this much wall time, and nothing for shorter runs.
    static constexpr std::chrono::seconds kLogInterval{10};

    // `prefix` opens each line: "collsim coll".
    ProgressThrottle(std::string prefix, ProgressStyle style);

    // What to write to stderr at `elapsed` wall time since the run began
    // (empty: nothing yet). The rate is over the time since the line before.
    // Call it at every poll, due or not: it times the units as they finish.
    std::string update(std::chrono::nanoseconds elapsed, const RunMonitor::Counts& c);
    // What to write when the run ends: on a terminal, blanks to wipe the
    // line drawn, so the results start on a clean line; else nothing.
    std::string finish();

private:
    void track_units(std::chrono::nanoseconds elapsed, const RunMonitor::Counts& c);

    std::string prefix_;
    ProgressStyle style_;
    std::chrono::nanoseconds next_;          // when the next line is due
    std::chrono::nanoseconds last_at_{0};    // when the last line was written
    uint64_t last_events_ = 0;               // and the events counted then
    std::size_t drawn_ = 0;                  // terminal: length of the longest line drawn
    // Units as seen at each update, due or not: the stage (by its unit's
    // name) and when it began, the count and when it last rose, and how long
    // the unit that rose it took.
    const char* unit_ = nullptr;
    std::chrono::nanoseconds stage_at_{0}, unit_at_{0}, last_unit_{0};
    uint64_t done_ = 0;
};

}  // namespace collsim
