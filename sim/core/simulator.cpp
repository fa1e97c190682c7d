#include "sim/core/simulator.hpp"

#include <stdexcept>

namespace collsim {

EventHandle Simulator::schedule_at(Time when, Event ev) {
    if (when < now_) throw std::logic_error("event scheduled in the past");
    uint32_t slot;
    if (!free_slots_.empty()) {
        slot = free_slots_.back();
        free_slots_.pop_back();
    } else {
        if (slots_.size() >= (1u << kSlotBits)) throw std::length_error("more than 2^26 pending events");
        slot = static_cast<uint32_t>(slots_.size());
        slots_.emplace_back();
    }
    Slot& s = slots_[slot];
    s.event = std::move(ev);
    s.cancelled = false;
    if (next_seq_ >= (uint64_t{1} << (64 - kSlotBits))) throw std::length_error("event sequence exhausted");
    heap_.push_back(Key{when.ps(), (next_seq_++ << kSlotBits) | slot});
    sift_up(heap_.size() - 1);
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

bool Simulator::pop_and_run() {
    while (!heap_.empty()) {
        Key top = heap_.front();
        heap_.front() = heap_.back();
        heap_.pop_back();
        if (!heap_.empty()) sift_down(0);
        uint32_t slot = static_cast<uint32_t>(top.seq_slot & ((1u << kSlotBits) - 1));
        if (slots_[slot].cancelled) {
            release(slot);
            continue;
        }
        Event ev = std::move(slots_[slot].event);
        release(slot);
        --live_;
        now_ = Time::from_ps(top.time);
        ++processed_;
        ev();
        return true;
    }
    return false;
}

void Simulator::run() {
    while (pop_and_run()) {
    }
}

void Simulator::run_until(Time limit) {
    while (!heap_.empty() && heap_.front().time <= limit.ps()) pop_and_run();
    if (now_ < limit) now_ = limit;
}

// 4-ary heap: half the depth of a binary heap and the four children of a node
// share a cache line (4 x 16 bytes).
void Simulator::sift_up(std::size_t i) {
    Key k = heap_[i];
    while (i > 0) {
        std::size_t parent = (i - 1) / 4;
        if (!(k < heap_[parent])) break;
        heap_[i] = heap_[parent];
        i = parent;
    }
    heap_[i] = k;
}

void Simulator::sift_down(std::size_t i) {
    Key k = heap_[i];
    const std::size_t n = heap_.size();
    for (;;) {
        std::size_t first = 4 * i + 1;
        if (first >= n) break;
        std::size_t best = first;
        std::size_t last = first + 4 < n ? first + 4 : n;
        for (std::size_t c = first + 1; c < last; ++c)
            if (heap_[c] < heap_[best]) best = c;
        if (!(heap_[best] < k)) break;
        heap_[i] = heap_[best];
        i = best;
    }
    heap_[i] = k;
}

}  // namespace collsim
