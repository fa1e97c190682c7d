#pragma once
// Finds stragglers from per-rank timings. One rank's log cannot show who is
// slow (it only sees itself waiting); across ranks the culprit is the rank
// that arrives late at collectives far more often than noise explains.
//
// Per collective, arrival lateness is measured against the median arrival in
// robust standard deviations (1.4826 x the median absolute deviation); a rank
// is late there when it arrives more than kLateSigmas after the median. A rank
// whose late arrivals stand out from the background rate of late arrivals is
// named, with the evidence; a NIC or switch whose every user is named is
// named too.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/faults/rank_timings.hpp"
#include "sim/hw/topology.hpp"

namespace collsim {

inline constexpr double kLateSigmas = 6.0;

struct Suspect {
    int rank = 0;
    double confidence = 0;       // share of its late arrivals not explained by background noise
    int late_collectives = 0;    // collectives it arrived late at
    double mean_lateness_us = 0; // how long the others waited for it, on average, when it was late
    double mean_sigmas = 0;      // the same in robust standard deviations
    std::string evidence;
};

struct SharedComponent {
    std::string device;  // a NIC or switch used only by named ranks
    std::vector<int> ranks;
};

// Ranks that appear elsewhere in the timings but have no row for a collective:
// a row lost from the file, or a rank that never reached it (a hang).
struct MissingRows {
    int64_t collective = 0;
    std::string name;  // the collective's name where the timings give one (RankTiming::name)
    std::vector<int> ranks;
};

struct Diagnosis {
    int ranks = 0;
    int collectives = 0;
    std::vector<MissingRows> missing;  // by collective; empty when every rank has a row for every collective
    int64_t missing_rows = 0;
    double median_skew_us = 0, p99_skew_us = 0, max_skew_us = 0;  // last arrival minus median arrival
    std::vector<Suspect> culprits;  // most confident first
    std::vector<SharedComponent> shared;
    std::string verdict;
};

// `topo` (may be null) maps rank i to its i-th GPU to name shared components.
Diagnosis diagnose(const std::vector<RankTiming>& timings, const Topology* topo);

}  // namespace collsim
