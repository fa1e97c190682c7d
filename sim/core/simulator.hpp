#pragma once
// The discrete-event core: one deterministic queue owned by a Simulator object
// (no global singleton, so two simulations can live in one process).
//
// Ordering is (time, insertion sequence): events at equal times run first in,
// first out. The queue is a radix heap (Ahuja, Mehlhorn, Orlin, Tarjan 1990)
// over the integer time: it works because simulated time never goes
// backwards, and it turns a heap's log(n) levels of unpredictable compares
// and cache misses into appends and sequential scans. Entries are 16-byte
// (time, slot) keys; the callables live in a slot pool beside them, so the
// queue only ever moves keys. BENCHMARKS.md has the measurements behind this
// (about 4x a std::priority_queue at 1M pending events, where the 4-ary heap
// it replaced was about 1.2x).
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "sim/core/event.hpp"
#include "sim/core/run_monitor.hpp"
#include "sim/core/time.hpp"

namespace collsim {

// An event later than the clock can count (2^63 ps, about 106 days): what
// asked for it (a duration, a FLOP count, a trace of many such steps) is
// larger than a simulation can hold, so the CLI reports it as bad input.
class ClockOverflow : public std::overflow_error {
public:
    ClockOverflow() : std::overflow_error("an event beyond 106 days of simulated time, the longest the clock holds") {}
};

struct EventHandle {
    uint32_t slot = UINT32_MAX;
    uint32_t generation = 0;
};

class Simulator {
public:
    Time now() const { return now_; }
    // When the last event ran: where a run that ran out of events got stuck,
    // even after run_until moved now() on to its limit.
    Time last_event() const { return last_event_; }

    EventHandle schedule_at(Time when, Event ev);
    EventHandle schedule_in(Time delay, Event ev) {
        if (delay.ps() > INT64_MAX - now_.ps()) throw ClockOverflow();
        return schedule_at(now_ + delay, std::move(ev));
    }

    // Lazy cancel: the event is dropped when it reaches the head of the queue.
    // Returns false when the event already ran or was cancelled.
    bool cancel(EventHandle h);

    void run();                 // until no event is pending
    void run_until(Time limit);  // runs events with time <= limit; now() ends at limit

    std::size_t pending() const { return live_; }
    uint64_t events_processed() const { return processed_; }

    // run() and run_until() report to `m` every RunMonitor::kPollEvents
    // events, and the events left over when they return; a RunStopped thrown
    // by its poll() leaves them. nullptr: no monitor. The monitor only reads,
    // so a run gives the same results with or without one.
    void set_monitor(RunMonitor* m);

private:
    struct Entry {
        uint64_t time;  // picoseconds; never negative, since nothing runs before 0
        uint32_t slot;
    };
    // One cache line per slot, so running an event costs one miss, not two.
    struct alignas(64) Slot {
        Event event;
        uint32_t generation = 0;
        bool cancelled = false;
    };
    static_assert(sizeof(Slot) == 64);
    static constexpr int kBuckets = 65;  // see bucket_of() in simulator.cpp
    // Buckets up to this size have their callables prefetched as they are
    // spread: 64 KiB of slots, well inside L2, so they are still cached when
    // their events run. 16 and 64 were slower at 1M pending, 8192 no faster.
    static constexpr std::size_t kPrefetchBucket = 1024;
    static constexpr std::size_t kCompactBucket0 = 4096;

    bool run_next(uint64_t limit);
    void poll_monitor();
    void flush_monitor();
    uint64_t min_above() const;
    void redistribute();
    void release(uint32_t slot);

    std::array<std::vector<Entry>, kBuckets> buckets_;
    std::array<uint64_t, kBuckets> bucket_min_ = [] {  // earliest time in each bucket >= 1
        std::array<uint64_t, kBuckets> m{};
        m.fill(UINT64_MAX);
        return m;
    }();
    std::size_t front_ = 0;     // next unread entry of bucket 0, which is consumed in order
    uint64_t base_ = 0;         // time of the last minimum taken out; <= now_ between events
    uint64_t occupied_ = 0;     // bit b-1 set while bucket b >= 1 is non-empty
    std::vector<Slot> slots_;
    std::vector<uint32_t> free_slots_;
    Time now_{}, last_event_{};
    uint64_t processed_ = 0;
    std::size_t live_ = 0;
    RunMonitor* monitor_ = nullptr;
    uint64_t next_poll_ = UINT64_MAX;  // processed_ at which to poll; never reached without a monitor
    uint64_t reported_ = 0;            // events already handed to the monitor
};

}  // namespace collsim
