#pragma once
// Time of each collective a step runs, predicted once per (operation, size,
// GPUs of the group) and remembered: the layouts of a search share most of
// their communicators (every layout with TP 8 has the same TP group on the
// same 8 GPUs), so a search of hundreds of layouts predicts a few hundred
// collectives, not hundreds of thousands. A collective is timed alone on its
// group's GPUs by the fluid tier unless told otherwise (sim/model/model_tier.hpp:
// exact for the steady state of pipelined algorithms, the chunk-level
// simulation for the others, such as send/recv); the other
// groups of the same communicator run at the same time on other GPUs, and on
// a rail-optimised fabric they share no link with it (plan_report says so in
// its notes; tests/plan checks it by replaying them together).
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sim/hw/routes.hpp"
#include "sim/hw/topology.hpp"
#include "sim/model/calibration.hpp"
#include "sim/model/model_tier.hpp"

namespace collsim {

struct CollectiveCost {
    double seconds = 0;
    std::string algo;
    ModelTier tier = ModelTier::flow;
};

class CollectiveCosts {
public:
    CollectiveCosts(const Topology& topo, const Calibration& cal, ModelTier tier = ModelTier::fluid);

    // Ranks are positions in the topology's GPU list (rank r on its r-th GPU).
    // A group of one rank costs nothing.
    const CollectiveCost& cost(CollOp op, Bytes bytes, const std::vector<int>& ranks);
    std::size_t predicted() const { return cache_.size(); }
    const Topology& topology() const { return topo_; }

private:
    const Topology& topo_;
    const Calibration& cal_;
    ModelTier tier_;
    Routes routes_;
    std::map<std::tuple<CollOp, int64_t, std::vector<int>>, CollectiveCost> cache_;
    CollectiveCost none_;
};

}  // namespace collsim
