#pragma once
// The baseline the engine is measured against: the event queue most simulators
// start with, a std::priority_queue of (time, insertion sequence, std::function)
// ordered by (time, seq). It gets its best reasonable shot: the callable is
// moved out of the top rather than copied, and the vector is reserved up front.
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace collsim::bench {

class BaselineQueue {
public:
    explicit BaselineQueue(std::size_t capacity) {
        std::vector<Entry> storage;
        storage.reserve(capacity);
        queue_ = Queue(Later{}, std::move(storage));
    }

    int64_t now() const { return now_; }
    uint64_t events_processed() const { return processed_; }
    std::size_t pending() const { return queue_.size(); }

    void schedule_in(int64_t delay, std::function<void()> fn) {
        queue_.push(Entry{now_ + delay, next_seq_++, std::move(fn)});
    }

    void run_until(int64_t limit) {
        while (!queue_.empty() && queue_.top().time <= limit) {
            // top() is const; moving out is safe because pop() only moves the
            // moved-from entry to the back and destroys it.
            Entry e = std::move(const_cast<Entry&>(queue_.top()));
            queue_.pop();
            now_ = e.time;
            ++processed_;
            e.fn();
        }
        if (now_ < limit) now_ = limit;
    }

private:
    struct Entry {
        int64_t time;
        uint64_t seq;
        std::function<void()> fn;
    };
    struct Later {  // std::priority_queue is a max-heap: invert for earliest first
        bool operator()(const Entry& a, const Entry& b) const {
            return a.time > b.time || (a.time == b.time && a.seq > b.seq);
        }
    };
    using Queue = std::priority_queue<Entry, std::vector<Entry>, Later>;

    Queue queue_;
    int64_t now_ = 0;
    uint64_t next_seq_ = 0;
    uint64_t processed_ = 0;
};

}  // namespace collsim::bench
