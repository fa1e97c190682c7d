#pragma once
// Intermittent stragglers on links in a replay: for each collective ("per:
// collective") or each step ("per: step": one draw for all the step's
// collectives), a straggler fault on links strikes with probability p, and
// its links then run at 1/factor of their bandwidth while that collective
// runs. Slowdowns of collectives that overlap on a link multiply, and the
// link returns to its bandwidth when the last of them ends.
#include <cstdint>
#include <map>
#include <vector>

#include "sim/faults/fault_plan.hpp"
#include "sim/net/network.hpp"

namespace collsim {

class LinkStragglers {
public:
    LinkStragglers(const FaultPlan& plan, uint64_t seed);

    // Collective `run` of step `step` starts / ends on `net`.
    void begin(Network& net, uint32_t run, int step);
    void end(Network& net, uint32_t run);
    bool empty() const { return faults_.empty(); }

private:
    struct Slowed {
        Bandwidth base;
        std::vector<double> factors;  // of the collectives slowing it now
    };
    void apply(Network& net, ResourceId r, const Slowed& s) const;

    std::vector<std::pair<const Fault*, uint64_t>> faults_;  // with their keys for draws
    uint64_t seed_;
    std::map<ResourceId, Slowed> slowed_;
    std::map<uint32_t, std::vector<std::pair<ResourceId, double>>> by_run_;
};

}  // namespace collsim
