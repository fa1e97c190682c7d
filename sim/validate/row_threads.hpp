#pragma once
// The rows of a dataset are independent simulations, so a second thread can
// take some of them when a core is free. `validate --cross` runs two fits at
// once on the CI machine's two cores; the largest fit (a 16-rank two-node
// sweep to 16 GiB, 31 simulations of every row) then runs alone for most of
// the run's wall time, and its rows are what the idle core can share.
//
// Results never depend on the threads: each row is predicted on its own
// (a thread's Routes only cache paths, which are the same whoever finds
// them first) and kept in row order.
#include <atomic>
#include <cstddef>
#include <functional>
#include <string>

#include "sim/validate/topology_cache.hpp"

namespace collsim {

// Cores that threads may borrow for a while: taken where free, given back.
class SpareCores {
public:
    explicit SpareCores(int free = 0) : free_(free) {}
    bool take();
    void give() { free_.fetch_add(1); }

private:
    std::atomic<int> free_;
};

// One thread's way to a second thread for its rows: the second thread's
// own topologies, loaded with the same --set changes on first use.
class RowThreads {
public:
    RowThreads(SpareCores& cores, std::vector<std::string> settings) : cores_(cores), second_(std::move(settings)) {}

    // Runs row(i, machine) for every i below n: on the calling thread with
    // `mine`, and on a second thread with its own copy of `topology` where a
    // spare core is free. An exception from either (a RunStopped, bad input)
    // stops both after their current row and is rethrown here, the calling
    // thread's first.
    void run(std::size_t n, const std::string& topology, TopologyCache::Entry& mine,
             const std::function<void(std::size_t, TopologyCache::Entry&)>& row);

private:
    SpareCores& cores_;
    TopologyCache second_;
};

}  // namespace collsim
