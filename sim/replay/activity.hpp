#pragma once
// What each rank was doing over time: the intervals in which it computed and
// in which its communication was under way (from the moment every participant
// had arrived to the end; waiting for late peers counts as neither). Host
// (CPU) work of imported traces is neither either: the GPU is idle meanwhile.
#include <vector>

#include "sim/replay/replay_result.hpp"

namespace collsim {

struct Interval {
    Time begin, end;
};

// Sorted, disjoint, non-empty intervals covering the same time as `v`.
std::vector<Interval> merged(std::vector<Interval> v);
Time total(const std::vector<Interval>& merged);
// Time covered by both (each argument merged).
Time overlap(const std::vector<Interval>& a, const std::vector<Interval>& b);

struct RankActivity {
    std::vector<Interval> compute, comm;  // each merged
};

RankActivity rank_activity(const Trace& trace, const ReplayResult& r, int rank);

}  // namespace collsim
