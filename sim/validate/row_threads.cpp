#include "sim/validate/row_threads.hpp"

#include <exception>
#include <thread>

namespace collsim {

bool SpareCores::take() {
    int n = free_.load();
    while (n > 0)
        if (free_.compare_exchange_weak(n, n - 1)) return true;
    return false;
}

void RowThreads::run(std::size_t n, const std::string& topology, TopologyCache::Entry& mine,
                     const std::function<void(std::size_t, TopologyCache::Entry&)>& row) {
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    auto rows = [&](TopologyCache::Entry& machine) {
        for (std::size_t i = next++; i < n && !failed; i = next++) row(i, machine);
    };
    if (n < 2 || !cores_.take()) {
        rows(mine);
        return;
    }
    std::exception_ptr theirs;
    std::thread second([&] {
        try {
            rows(second_.get(topology));
        } catch (...) {
            theirs = std::current_exception();
            failed = true;
        }
    });
    std::exception_ptr own;
    try {
        rows(mine);
    } catch (...) {
        own = std::current_exception();
        failed = true;
    }
    second.join();
    cores_.give();
    if (own) std::rethrow_exception(own);
    if (theirs) std::rethrow_exception(theirs);
}

}  // namespace collsim
