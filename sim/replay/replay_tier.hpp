#pragma once
// Which tier a replay's collectives take under --model auto. auto weighs a
// replay as a whole: past kAutoChunkLevelCalls collective calls over all
// ranks and steps, chunk-level collectives would take minutes even where each
// fits the chunk-level budget (a 1,024-GPU 3D step: 0.7 M calls, 45 s for a
// tenth of its layers), so every collective with a fluid form takes the fluid
// tier; below it each chooses by its own schedule's size (model_tier.hpp).
#include <cstdint>

#include "sim/model/model_tier.hpp"
#include "sim/replay/trace.hpp"

namespace collsim {

inline constexpr int64_t kAutoChunkLevelCalls = 50'000;

// `asked` itself unless it is automatic; `steps`: how often the program runs.
ModelTier replay_tier(const Trace& trace, ModelTier asked, int steps);

}  // namespace collsim
