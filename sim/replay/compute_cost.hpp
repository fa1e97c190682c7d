#pragma once
// The time of a compute op on a rank: its given duration, or the roofline of
// the rank's GPU card. The card is the trace's (gpu.card, or a custom one)
// or, when the trace names none, the one matching the topology's GPU
// generation (arch); then the topology's memory_bandwidth, when the GPU
// declares one, replaces the card's HBM figure, as it describes that GPU.
#include <vector>

#include "sim/hw/topology.hpp"
#include "sim/replay/trace.hpp"

namespace collsim {

class ComputeCoster {
public:
    // Throws InputErrors when an op needs a roofline that no card can give.
    ComputeCoster(const Trace& trace, const Topology& topo, const std::vector<DeviceId>& rank_gpus);

    Time duration(int rank, const TraceOp& op) const;
    // The card of a rank, or nullptr when none is known (only durations used).
    const GpuCard* card(int rank) const { return cards_[static_cast<std::size_t>(rank)]; }

private:
    Roofline roofline(int rank, const ComputeCost& c) const;

    const Trace& trace_;
    std::vector<const GpuCard*> cards_;
    std::vector<Bandwidth> memory_;
};

}  // namespace collsim
