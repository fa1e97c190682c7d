#include <catch2/catch.hpp>

#include <vector>

#include "sim/core/run_monitor.hpp"
#include "sim/core/simulator.hpp"

using namespace collsim;
using namespace collsim::literals;

namespace {

// Counts its polls; throws RunStopped at the poll numbered `stop_at` (0: never).
class CountingMonitor final : public RunMonitor {
public:
    explicit CountingMonitor(int stop_at = 0) : stop_at_(stop_at) {}
    void poll() override {
        ++polls;
        seen.push_back(counts().events);
        if (polls == stop_at_) throw RunStopped("test stop");
    }
    int polls = 0;
    std::vector<uint64_t> seen;  // events counted at each poll

private:
    int stop_at_;
};

// A chain of `n` events 1 ns apart, each recording the time it ran.
void chain(Simulator& sim, std::vector<Time>& ran, uint64_t n) {
    struct Step {
        Simulator* sim;
        std::vector<Time>* ran;
        uint64_t left;
        void operator()() const {
            ran->push_back(sim->now());
            if (left > 1) sim->schedule_in(1_ns, Step{sim, ran, left - 1});
        }
    };
    sim.schedule_at(Time{}, Step{&sim, &ran, n});
}

}  // namespace

TEST_CASE("a simulator polls its monitor every kPollEvents events and hands over the rest at the end") {
    constexpr uint64_t n = 3 * RunMonitor::kPollEvents + 5;
    Simulator sim;
    CountingMonitor m;
    sim.set_monitor(&m);
    std::vector<Time> ran;
    chain(sim, ran, n);
    sim.run();
    CHECK(m.polls == 3);
    CHECK(m.seen == std::vector<uint64_t>{RunMonitor::kPollEvents, 2 * RunMonitor::kPollEvents,
                                          3 * RunMonitor::kPollEvents});
    CHECK(m.counts().events == n);
    CHECK(m.counts().simulated == sim.now());
}

TEST_CASE("run_until reports to the monitor too, up to its limit") {
    Simulator sim;
    CountingMonitor m;
    sim.set_monitor(&m);
    std::vector<Time> ran;
    chain(sim, ran, 2 * RunMonitor::kPollEvents);
    sim.run_until(Time::from_ps(1000 * static_cast<int64_t>(RunMonitor::kPollEvents)));  // 1 ns apart, from 0
    CHECK(m.polls == 1);
    CHECK(m.counts().events == RunMonitor::kPollEvents + 1);
    CHECK(m.counts().simulated == sim.now());
}

TEST_CASE("RunStopped from the monitor leaves run() with the queue as it was, and the run can go on") {
    constexpr uint64_t n = 2 * RunMonitor::kPollEvents + 7;
    Simulator sim;
    CountingMonitor m(1);
    sim.set_monitor(&m);
    std::vector<Time> ran;
    chain(sim, ran, n);
    CHECK_THROWS_AS(sim.run(), RunStopped);
    CHECK(sim.events_processed() == RunMonitor::kPollEvents);
    CHECK(sim.pending() == 1);
    sim.set_monitor(nullptr);
    sim.run();
    CHECK(ran.size() == n);
    CHECK(sim.now() == Time::from_ps(1000 * static_cast<int64_t>(n - 1)));
}

TEST_CASE("a run gives the same events at the same times with a monitor and without one") {
    constexpr uint64_t n = RunMonitor::kPollEvents + 123;
    std::vector<Time> plain, watched;
    Simulator a;
    chain(a, plain, n);
    a.run();
    Simulator b;
    CountingMonitor m;
    b.set_monitor(&m);
    chain(b, watched, n);
    b.run();
    CHECK(m.polls == 1);
    CHECK(plain == watched);
    CHECK(a.now() == b.now());
    CHECK(a.events_processed() == b.events_processed());
}

TEST_CASE("a new stage of a monitor starts its count again") {
    CountingMonitor m;
    m.begin_stage("rows", 10);
    m.add_done(4);
    CHECK(m.counts().done == 4);
    CHECK(m.counts().total == 10);
    m.begin_stage("fits", 3, RunMonitor::UnitCost::rising);
    const RunMonitor::Counts c = m.counts();
    CHECK(c.done == 0);
    CHECK(c.total == 3);
    CHECK(std::string(c.unit) == "fits");
    CHECK(c.cost == RunMonitor::UnitCost::rising);
}
