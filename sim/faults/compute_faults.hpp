#pragma once
// Compute faults (fault_plan.hpp) acting on a replay's compute ops, each while
// its window [at, at + for) lasts:
//   slow:      an op starting in the window takes `factor` times as long;
//   pause:     an op that would start in the pause waits for its end, and one
//              under way when it begins is held for its length (a pause
//              without an end holds the rank for good: the replay hangs);
//   straggler: with probability p a rank is slowed by a factor drawn
//              uniformly from [min, max], once per step ("per: step": all its
//              compute in that step) or per compute op ("per: collective":
//              the work before each collective).
// Draws come from a counter-based stream keyed by the seed, the fault, the
// rank, the step and the op, so they do not depend on the order ops run in.
#include <optional>
#include <vector>

#include "sim/faults/fault_plan.hpp"

namespace collsim {

class ComputeFaults {
public:
    ComputeFaults(const FaultPlan& plan, const std::vector<DeviceId>& rank_gpus, uint64_t seed);

    // When an op of `nominal` length starting at `start` ends; nullopt while
    // a pause without an end holds it.
    std::optional<Time> end(int rank, int step, uint32_t op, Time start, Time nominal) const;
    // The product of the straggler slowdowns drawn for this op (1: none).
    double straggler_factor(int rank, int step, uint32_t op, Time start) const;
    bool empty() const { return empty_; }

private:
    struct Hit {
        const Fault* fault;
        uint64_t key;  // the fault's position in the plan, for its draws
    };
    std::vector<std::vector<Hit>> per_rank_;  // the compute faults on each rank's GPU, pauses by start
    uint64_t seed_;
    bool empty_ = true;
};

}  // namespace collsim
