#pragma once
// Rank timings (rank_timings.hpp) from a replay's JSON report (`collsim replay
// --format json`): each collective, in report order, gives one row per
// member: its arrival (`arrivals_us`) and the collective's end
// (`start_us` + `latency_us`). So a replay with injected faults can be
// diagnosed exactly as people's own logs are.
#include <string>
#include <vector>

#include "sim/faults/rank_timings.hpp"

namespace collsim {

// Throws InputError naming the file, the position (line:column for malformed
// JSON) and the field that is missing or wrong.
std::vector<RankTiming> read_replay_timings(const std::string& text, const std::string& name);

}  // namespace collsim
