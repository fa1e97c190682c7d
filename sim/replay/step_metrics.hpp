#pragma once
// Where each rank's time went over the replay, as shares of the whole span
// (step time x steps): compute, communication hidden behind compute
// (overlapped), communication with no compute beside it (exposed), and idle
// (bubbles: neither, including waiting for late peers). compute + exposed +
// idle = 1; overlapped is the part of compute time during which
// communication also ran.
#include <vector>

#include "sim/replay/replay_result.hpp"

namespace collsim {

struct Fractions {
    double compute = 0, exposed_comm = 0, overlapped_comm = 0, idle = 0;
};

struct RankBreakdown {
    int rank = 0;
    Time compute, exposed_comm, overlapped_comm, idle;
    Fractions fractions;
};

struct StepMetrics {
    Time span;       // first op start (0) to last op end
    Time step_time;  // span / steps
    std::vector<RankBreakdown> ranks;
    Fractions average;
    int worst_rank = 0;  // the rank with the least compute share (the most exposed + idle)
};

StepMetrics step_metrics(const Trace& trace, const ReplayResult& r);

}  // namespace collsim
