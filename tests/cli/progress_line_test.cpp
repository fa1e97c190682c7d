#include <catch2/catch.hpp>

#include "sim/report/progress_line.hpp"

using namespace collsim;
using namespace std::chrono_literals;

namespace {
RunMonitor::Counts sweep(uint64_t done, uint64_t events = 0) {
    RunMonitor::Counts c;
    c.done = done;
    c.total = 28;
    c.unit = "sizes";
    c.events = events;
    c.simulated = Time::from_ps(1'234'000'000);  // 1.234 ms
    return c;
}
}  // namespace

TEST_CASE("a progress line says the count, the simulated time, the event rate, the time taken and the ETA") {
    CHECK(format_progress(sweep(3, 1000), 12s, 45.1e6, 40s) ==
          "3 of 28 sizes, simulated 1.23ms, 45.1M events/s, 12s elapsed, ETA ~40s");
}

TEST_CASE("a progress line leaves out the figures it does not have") {
    RunMonitor::Counts c = sweep(3);  // no events: the closed form, say
    CHECK(format_progress(c, 12s, 45.1e6, std::nullopt) == "3 of 28 sizes, 12s elapsed");
    c.total = 0;
    c.events = 5;
    CHECK(format_progress(c, 1s, -1, std::nullopt) == "3 sizes, simulated 1.23ms, 1s elapsed");
}

TEST_CASE("wall times read in seconds, minutes and hours") {
    CHECK(format_wall(7400ms) == "7s");
    CHECK(format_wall(185s) == "3min 05s");
    CHECK(format_wall(2h + 4min + 59s) == "2h 04min");
}

TEST_CASE("the ETA of alike units is the average so far, of rising ones at least the last unit's time each") {
    RunMonitor::Counts c = sweep(4);
    c.total = 8;
    CHECK(estimate_left(c, 8s, 0s, 5s) == std::chrono::nanoseconds(8s));  // 4 left at 2 s each
    c.cost = RunMonitor::UnitCost::rising;
    CHECK(estimate_left(c, 8s, 0s, 5s) == std::chrono::nanoseconds(20s));  // 4 left at 5 s each
    // The unit running has taken 6 s already: each takes at least that, 6 s of it gone.
    CHECK(estimate_left(c, 14s, 6s, 5s) == std::chrono::nanoseconds(18s));
    c.cost = RunMonitor::UnitCost::unknown;
    CHECK(!estimate_left(c, 8s, 0s, 5s));
    c.cost = RunMonitor::UnitCost::alike;
    c.done = 0;
    CHECK(!estimate_left(c, 8s, 0s, 5s));
}

TEST_CASE("on a terminal nothing shows for 2 s, then one line is redrawn in place every 250 ms") {
    ProgressThrottle t("collsim coll", ProgressStyle::terminal);
    CHECK(t.update(0ms, sweep(0)).empty());
    CHECK(t.update(1999ms, sweep(1)).empty());
    const std::string first = t.update(2000ms, sweep(2, 2'000'000));
    CHECK(first.starts_with("\rcollsim coll: 2 of 28 sizes, simulated 1.23ms, 1.00M events/s, 2s elapsed"));
    CHECK(first.find('\n') == std::string::npos);
    CHECK(t.update(2249ms, sweep(3, 3'000'000)).empty());
    // The rate is over the time since the line before: 1M events in 0.25 s.
    const std::string second = t.update(2250ms, sweep(3, 2'000'000 + 1'000'000));
    CHECK_THAT(second, Catch::Contains("4.00M events/s"));
    CHECK(second.starts_with("\r"));
}

TEST_CASE("a shorter line blanks what the longer one before left, and finish wipes the line") {
    ProgressThrottle t("collsim replay", ProgressStyle::terminal);
    RunMonitor::Counts c;
    c.unit = "ops";
    c.total = 1'000'000;
    c.done = 999'999;
    const std::string longer = t.update(3s, c);
    c.total = 0;
    c.done = 0;
    const std::string shorter = t.update(4s, c);
    CHECK(shorter.size() == longer.size());
    CHECK(shorter.ends_with(" "));
    CHECK(t.finish() == "\r" + std::string(longer.size() - 1, ' ') + "\r");
    CHECK(t.finish().empty());
}

TEST_CASE("a run too short to draw a line leaves nothing to wipe") {
    ProgressThrottle t("collsim coll", ProgressStyle::terminal);
    CHECK(t.update(1s, sweep(1)).empty());
    CHECK(t.finish().empty());
}

TEST_CASE("into a file or pipe a plain line goes every 10 s, and nothing for shorter runs") {
    ProgressThrottle t("collsim validate", ProgressStyle::log);
    CHECK(t.update(2s, sweep(1)).empty());
    CHECK(t.update(9999ms, sweep(1)).empty());
    const std::string first = t.update(10s, sweep(2));
    CHECK(first == "collsim validate: 2 of 28 sizes, 10s elapsed, ETA ~2min 10s\n");
    CHECK(t.update(19s, sweep(3)).empty());
    // A poll that comes late keeps the lines on multiples of 10 s.
    CHECK_THAT(t.update(23s, sweep(4)), Catch::Contains("23s elapsed"));
    CHECK(t.update(29s, sweep(4)).empty());
    CHECK(!t.update(30s, sweep(4)).empty());
    CHECK(t.finish().empty());
}

TEST_CASE("the ETA of a rising sweep comes from the last size's time") {
    ProgressThrottle t("collsim coll", ProgressStyle::terminal);
    RunMonitor::Counts c = sweep(0);
    c.total = 6;
    c.cost = RunMonitor::UnitCost::rising;
    for (uint64_t done = 1; done <= 3; ++done) {
        c.done = done;
        t.update(std::chrono::milliseconds(100 * done), c);  // three quick sizes: 0.1 s each
    }
    c.done = 4;
    CHECK_THAT(t.update(2100ms, c), Catch::Contains("ETA ~3s"));  // the fourth took 1.8 s: two left at 1.8 s
    // 0.25 s into the fifth: 1.8 s each still, less what has gone; the
    // average over the stage would say 1 s.
    CHECK_THAT(t.update(2350ms, c), Catch::Contains("ETA ~3s"));
}
