#pragma once
// The discrete-event core: one deterministic queue owned by a Simulator object
// (no global singleton, so two simulations can live in one process).
//
// Ordering is (time, insertion sequence): events at equal times run first in,
// first out. The queue is a 4-ary heap of 16-byte keys; the callables live in
// a slot pool beside it, so heap moves touch only keys (see BENCHMARKS.md).
#include <cstdint>
#include <vector>

#include "sim/core/event.hpp"
#include "sim/core/time.hpp"

namespace collsim {

struct EventHandle {
    uint32_t slot = UINT32_MAX;
    uint32_t generation = 0;
};

class Simulator {
public:
    Time now() const { return now_; }

    EventHandle schedule_at(Time when, Event ev);
    EventHandle schedule_in(Time delay, Event ev) { return schedule_at(now_ + delay, std::move(ev)); }

    // Lazy cancel: the event is dropped when it reaches the head of the queue.
    // Returns false when the event already ran or was cancelled.
    bool cancel(EventHandle h);

    void run();                 // until no event is pending
    void run_until(Time limit);  // runs events with time <= limit; now() ends at limit

    std::size_t pending() const { return live_; }
    uint64_t events_processed() const { return processed_; }

private:
    struct Key {
        int64_t time;
        uint64_t seq_slot;  // insertion sequence in the high bits, slot in the low kSlotBits
        bool operator<(const Key& o) const {
            return time < o.time || (time == o.time && seq_slot < o.seq_slot);
        }
    };
    struct Slot {
        Event event;
        uint32_t generation = 0;
        bool cancelled = false;
    };
    static constexpr int kSlotBits = 26;

    bool pop_and_run();
    void sift_up(std::size_t i);
    void sift_down(std::size_t i);
    void release(uint32_t slot);

    std::vector<Key> heap_;
    std::vector<Slot> slots_;
    std::vector<uint32_t> free_slots_;
    Time now_{};
    uint64_t next_seq_ = 0;
    uint64_t processed_ = 0;
    std::size_t live_ = 0;
};

}  // namespace collsim
