#pragma once
// A hook through which a long run says how far it got, and through which it
// can be stopped, without wall-clock time ever entering the simulation: the
// run only hands the monitor counts it keeps anyway (events run, simulated
// time, units of work done), and the monitor can only end the run by
// throwing RunStopped. What a monitor does with the counts (print progress,
// watch a wall-clock limit) is its owner's business: library code never
// prints, so the monitors that do live in sim/cli.
//
// Simulators given a monitor (Simulator::set_monitor) call poll() every
// kPollEvents events; drivers that run many simulations (a size sweep, the
// rows of a validation) call it after each unit of work too.
#include <atomic>
#include <cstdint>
#include <stdexcept>

#include "sim/core/time.hpp"

namespace collsim {

// Thrown by RunMonitor::poll to end a run early; what() says what stopped it
// ("--wall-limit 30s"). The run's state is left as it was after its last event.
class RunStopped : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class RunMonitor {
public:
    // 65,536 events take a few milliseconds at the engine's 10-20M events/s
    // (BENCHMARKS.md): often enough to redraw a progress line or notice a
    // wall-clock limit, rare enough that polling costs nothing measurable.
    static constexpr uint64_t kPollEvents = 65536;

    // What the units left will cost, for an estimate of the time left.
    enum class UnitCost : uint8_t {
        alike,    // about the same as those done, on average (rows over many datasets)
        rising,   // each at least what the one before cost (a sweep of growing sizes)
        unknown,  // no telling: no estimate (a replay's ops, kernels beside 1 GiB AllReduces)
    };

    struct Counts {
        uint64_t events = 0;  // engine events run, over every simulation reporting here
        Time simulated{};     // the clock of the simulation that reported last
        uint64_t done = 0, total = 0;  // units of work; total 0: not known
        const char* unit = "";         // what a unit is: "sizes", "rows", "ops"
        UnitCost cost = UnitCost::alike;
    };

    virtual ~RunMonitor() = default;

    // From any thread that does the run's work, so implementations must be
    // thread-safe. May throw RunStopped.
    virtual void poll() = 0;

    // Counters, safe from any thread. Relaxed atomics: they are only read to
    // be shown, never to order other memory.
    void add_events(uint64_t n) { events_.fetch_add(n, std::memory_order_relaxed); }
    void set_simulated(Time t) { simulated_ps_.store(t.ps(), std::memory_order_relaxed); }
    void add_done(uint64_t n = 1) { done_.fetch_add(n, std::memory_order_relaxed); }
    // A new stage of the run: `total` units of `unit` (a string literal), none done yet.
    void begin_stage(const char* unit, uint64_t total, UnitCost cost = UnitCost::alike) {
        unit_.store(unit, std::memory_order_relaxed);
        cost_.store(cost, std::memory_order_relaxed);
        total_.store(total, std::memory_order_relaxed);
        done_.store(0, std::memory_order_relaxed);
    }

    Counts counts() const {
        return Counts{events_.load(std::memory_order_relaxed),
                      Time::from_ps(simulated_ps_.load(std::memory_order_relaxed)),
                      done_.load(std::memory_order_relaxed), total_.load(std::memory_order_relaxed),
                      unit_.load(std::memory_order_relaxed), cost_.load(std::memory_order_relaxed)};
    }

private:
    std::atomic<uint64_t> events_{0}, done_{0}, total_{0};
    std::atomic<int64_t> simulated_ps_{0};
    std::atomic<const char*> unit_{""};
    std::atomic<UnitCost> cost_{UnitCost::alike};
};

}  // namespace collsim
