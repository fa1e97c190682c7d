#include "sim/core/simulator.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

// Radix heap invariants, with base_ the time of the last minimum taken out:
//  1. every entry has time >= base_, and sits in bucket_of(time, base_);
//     so every time in bucket b is below every time in bucket b+1;
//  2. entries with equal times sit in one bucket, in insertion order.
// (2) is what makes equal-time events FIFO without storing a sequence number:
// schedule_at appends, redistribute() moves a bucket's entries in order, and
// entries of one time always move together because their bucket depends only
// on the time and base_.
// base_ never advances past the limit of the run in progress (see run_next),
// so base_ <= now_ whenever an event runs or a run returns, and schedule_at's
// "not in the past" check also keeps (1).

namespace collsim {

namespace {
// Bucket 0 holds entries at exactly `base`; bucket b >= 1 those whose time
// first differs from it at bit b-1.
int bucket_of(uint64_t time, uint64_t base) { return std::bit_width(time ^ base); }
}  // namespace

EventHandle Simulator::schedule_at(Time when, Event ev) {
    if (when.ps() < 0) throw ClockOverflow();  // a time summed past 2^63 ps wraps negative
    if (when < now_) throw std::logic_error("event scheduled in the past");
    uint32_t slot;
    if (!free_slots_.empty()) {
        slot = free_slots_.back();  // LIFO: the slot just run is the one still in cache
        free_slots_.pop_back();
    } else {
        if (slots_.size() >= UINT32_MAX) throw std::length_error("more than 2^32 - 1 pending events");
        slot = static_cast<uint32_t>(slots_.size());
        slots_.emplace_back();
    }
    Slot& s = slots_[slot];
    s.event = std::move(ev);
    s.cancelled = false;
    const auto time = static_cast<uint64_t>(when.ps());
    const int b = bucket_of(time, base_);
    buckets_[static_cast<std::size_t>(b)].push_back(Entry{time, slot});
    if (b > 0) {
        occupied_ |= uint64_t{1} << (b - 1);
        bucket_min_[static_cast<std::size_t>(b)] = std::min(bucket_min_[static_cast<std::size_t>(b)], time);
    }
    ++live_;
    return EventHandle{slot, s.generation};
}

bool Simulator::cancel(EventHandle h) {
    if (h.slot >= slots_.size()) return false;
    Slot& s = slots_[h.slot];
    if (s.generation != h.generation || s.cancelled || !s.event) return false;
    s.cancelled = true;
    s.event.reset();
    --live_;
    return true;
}

void Simulator::release(uint32_t slot) {
    ++slots_[slot].generation;
    slots_[slot].cancelled = false;
    free_slots_.push_back(slot);
}

// The earliest time above bucket 0: invariant 1 puts it in the lowest
// non-empty bucket, whose minimum is kept up to date as entries arrive.
uint64_t Simulator::min_above() const {
    return bucket_min_[static_cast<std::size_t>(std::countr_zero(occupied_) + 1)];
}

// Bucket 0 is used up: advance base_ to the earliest pending time and spread
// the lowest bucket over the buckets below it. All its entries agree with the
// new base_ above bit b-1, so each lands strictly lower; each entry moves at
// most 64 times in its life, whatever the spread of times.
void Simulator::redistribute() {
    const auto b = static_cast<std::size_t>(std::countr_zero(occupied_) + 1);
    auto& from = buckets_[b];
    base_ = bucket_min_[b];
    bucket_min_[b] = UINT64_MAX;
    // Locals: stores through Entry pointers could alias the members.
    uint64_t occupied = occupied_ & ~(uint64_t{1} << (b - 1));
    const uint64_t base = base_;
    // These entries run before anything in higher buckets. When they are few
    // they are the next events to run, so fetch their callables now and let
    // the misses overlap with running the first of them.
    const bool prefetch = from.size() <= kPrefetchBucket;
    for (const Entry& e : from) {
        if (prefetch) __builtin_prefetch(&slots_[e.slot]);
        const auto to = static_cast<std::size_t>(bucket_of(e.time, base));
        buckets_[to].push_back(e);
        if (to > 0) {
            occupied |= uint64_t{1} << (to - 1);
            bucket_min_[to] = std::min(bucket_min_[to], e.time);
        }
    }
    occupied_ = occupied;
    from.clear();
}

// Runs the earliest live event if its time is <= limit; false when there is none.
bool Simulator::run_next(uint64_t limit) {
    for (;;) {
        if (front_ == buckets_[0].size()) {
            buckets_[0].clear();
            front_ = 0;
            if (occupied_ == 0) {
                // Empty. Skipped cancelled entries may have left base_ past
                // now_; with nothing queued any base_ <= now_ is valid.
                base_ = static_cast<uint64_t>(now_.ps());
                return false;
            }
            // Advancing base_ past limit would let a later schedule_at between
            // now_ and base_ break invariant 1, so stop before that.
            if (min_above() > limit) return false;
            redistribute();
        }
        if (base_ > limit) return false;
        const uint32_t slot = buckets_[0][front_++].slot;
        // A long chain of same-time events keeps bucket 0 from ever emptying;
        // drop its consumed prefix now and then so memory stays bounded.
        if (front_ >= kCompactBucket0 && 2 * front_ >= buckets_[0].size()) {
            buckets_[0].erase(buckets_[0].begin(), buckets_[0].begin() + static_cast<std::ptrdiff_t>(front_));
            front_ = 0;
        }
        if (slots_[slot].cancelled) {
            release(slot);
            continue;
        }
        // Moved out first: the event may schedule others and grow slots_.
        Event ev = std::move(slots_[slot].event);
        release(slot);
        --live_;
        now_ = Time::from_ps(static_cast<int64_t>(base_));
        last_event_ = now_;
        ++processed_;
        ev();
        return true;
    }
}

void Simulator::set_monitor(RunMonitor* m) {
    flush_monitor();
    monitor_ = m;
    reported_ = processed_;
    next_poll_ = m ? processed_ + RunMonitor::kPollEvents : UINT64_MAX;
}

void Simulator::flush_monitor() {
    if (!monitor_) return;
    monitor_->add_events(processed_ - reported_);
    monitor_->set_simulated(now_);
    reported_ = processed_;
}

void Simulator::poll_monitor() {
    flush_monitor();
    next_poll_ = processed_ + RunMonitor::kPollEvents;
    monitor_->poll();
}

// One compare per event: without a monitor next_poll_ is never reached.
void Simulator::run() {
    while (run_next(UINT64_MAX))
        if (processed_ >= next_poll_) poll_monitor();
    flush_monitor();
}

void Simulator::run_until(Time limit) {
    if (limit.ps() >= 0)
        while (run_next(static_cast<uint64_t>(limit.ps())))
            if (processed_ >= next_poll_) poll_monitor();
    if (now_ < limit) now_ = limit;
    flush_monitor();
}

}  // namespace collsim
