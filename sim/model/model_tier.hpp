#pragma once
// Which tier times a collective. The chunk-level flow simulation (flow) is
// the reference: every chunk of every channel a flow. The fluid tier
// (algorithms/fluid_form.hpp) keeps the routes, the max-min sharing, faults
// and concurrent traffic but runs a pipelined algorithm's steady state as
// long-lived streams. The analytical tier is the closed form alone. auto
// takes the chunk-level tier where its schedule is small enough to answer in
// about a second, and the fluid tier beyond.
#include <cstddef>
#include <optional>
#include <string_view>

#include "sim/exec/collective.hpp"

namespace collsim {

struct AlgorithmInfo;
struct CommLayout;

enum class ModelTier { automatic, flow, fluid, analytical };

std::string_view to_string(ModelTier t);
std::optional<ModelTier> model_tier_from(std::string_view s);
std::string_view model_tier_choices();

// The most steps auto simulates chunk by chunk. On one core of the
// development machine the chunk-level tier runs from about 10^5 schedule
// steps a second (a 4-million-step NVLSTree on 1,024 GPUs, whose flows
// couple through the fabric: 36.6 s) to about 10^6 (one server), so this
// keeps it to a second or a few (BENCHMARKS.md).
inline constexpr std::size_t kAutoChunkSteps = 300'000;

// Whether `call`'s exact schedule (no step lumped, no chunk enlarged, every
// channel kept) has at most `budget` steps, found without building it whole:
// one channel is built under the bound and under twice the bound, and an
// exact schedule is the same under both.
bool fits_chunk_level(const AlgorithmInfo& a, const CollectiveCall& call, const CommLayout& comm, std::size_t budget);

}  // namespace collsim
