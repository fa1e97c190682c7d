#include "sim/model/model_tier.hpp"

#include <algorithm>

#include "algorithms/algorithm.hpp"

namespace collsim {

std::string_view to_string(ModelTier t) {
    switch (t) {
        case ModelTier::automatic: return "auto";
        case ModelTier::flow: return "flow";
        case ModelTier::fluid: return "fluid";
        case ModelTier::analytical: return "analytical";
    }
    return "auto";
}

std::optional<ModelTier> model_tier_from(std::string_view s) {
    for (ModelTier t : {ModelTier::automatic, ModelTier::flow, ModelTier::fluid, ModelTier::analytical})
        if (to_string(t) == s) return t;
    return std::nullopt;
}

std::string_view model_tier_choices() { return "one of auto, flow, fluid, analytical"; }

bool fits_chunk_level(const AlgorithmInfo& a, const CollectiveCall& call, const CommLayout& comm, std::size_t budget) {
    const auto channels = static_cast<std::size_t>(std::max(call.channels, 1));
    // Every algorithm has at least a send and a receive per rank and channel.
    if (static_cast<std::size_t>(call.ranks) * channels * 2 > budget) return false;
    CollectiveCall one = call;
    one.channels = 1;
    one.launched_channels = std::max(1, std::max(call.launched_channels, call.channels) / call.channels);
    one.max_steps = budget / channels;
    const Schedule bounded = a.build(one, comm);
    if (bounded.latency_scale > 1.0 || bounded.steps.size() * channels > budget) return false;
    one.max_steps *= 2;
    return a.build(one, comm).steps.size() == bounded.steps.size();
}

}  // namespace collsim
