#pragma once
// A direct AllToAll's n^2 transfers in classes of equivalent pairs, for its
// closed form and its fluid time at scale (alltoall_direct.cpp uses them past
// kAggregateAbove transfers).
//
// The quotient. Where the communicator is the whole machine, every node holds
// the same number of ranks and every node sees the fabric alike, the machine
// has a symmetry that maps any rank to any other, and with it every link to a
// link of the same role: a link direction's role is what it joins (the kinds
// of its two devices and their hop distances from the nearest GPU) and its
// bandwidth, as every GPU's PCIe uplink, or every leaf-to-spine direction.
// Two transfers whose routes cross the same roles, as many times each, with
// the same latency, are one class. Rates:
// - Max-min fairness has one solution, and a symmetry of the whole problem
//   (links, capacities, transfers) maps it to a solution, so to itself: the
//   transfers of a class get one rate, and the links of a role one load.
// - Given that, the rates over the individual transfers are those of the
//   classes over pooled roles: a role of L links of capacity c is one resource
//   of capacity L c, and a class of M members crossing it k times each loads
//   it by M k x. A link of the role then carries M k x / L, so the pooled
//   constraint sum M k x <= L c is the per-link one, and progressive filling
//   freezes a class exactly when its members' busiest links saturate (each
//   member has a saturated link where its rate is the largest, and that holds
//   for the class on the role). Classes end together, so re-rating after each
//   class ends is the individual flows' re-rating too.
// - The closed form divides each link among the transfers that cross it:
//   per link, the role's crossings over its links.
// Where the symmetry does not hold the classes are not exact:
// - ECMP: each pair hashes to one of its equal-cost paths, so links of one
//   role carry a binomial spread of flows, not their mean; the classes charge
//   the mean (a perfectly spread fabric). Where the hashed links are not the
//   bottleneck (1:1 fat-trees, whose per-GPU endpoints carry n-1 flows to a
//   leaf uplink's mean n - n/leaves) the answer is the same; where they are
//   (oversubscribed spines) the collisions' hot links are lost. The output says
//   so (the `# model:` line), and the tests bound the gap.
// - A communicator on part of the machine, nodes of different sizes, or a node
//   whose links of one role carry different loads (checked on the first node)
//   or a last node whose pairs fall into other classes than the first's:
//   no classes; the caller enumerates the pairs or refuses past its limit.
// - Faults, stragglers and other traffic act on the network while it runs; the
//   classes are not on it (no streams), so they do not see them: stated too.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "algorithms/cost_model.hpp"
#include "sim/exec/collective.hpp"

namespace collsim {

struct AllToAllClasses {
    struct Role {
        int64_t links = 0;     // link directions (or ceilings, memory ports) of the role
        int64_t capacity = 0;  // bytes per second of each
        bool link = true;      // a link direction (the closed form counts only these and ceilings)
    };
    struct Class {
        int64_t members = 0;                           // transfers, over all source nodes and channels
        std::vector<std::pair<uint32_t, int>> roles;   // role, times each member crosses it
        Time latency;                                  // step latency of each member's route
        Bytes wire;                                    // wire bytes of each member
    };
    std::vector<Role> roles;
    std::vector<Class> classes;
    int64_t routes = 0;  // representative routes computed
};

// The classes of a direct AllToAll of `bytes` per transfer, or why there are none.
std::variant<AllToAllClasses, std::string> alltoall_classes(const CollectiveCall& call, CostModel& m, Bytes bytes);

// The closed form over the classes: every transfer at its links' equal share
// (CostModel::concurrent's figure), the slowest class.
Estimate classes_concurrent(const AllToAllClasses& c);

// The transfers' max-min time on an otherwise idle network, class by class
// (progressive filling over the pooled roles, re-rated as classes end).
Time classes_fluid_time(const AllToAllClasses& c);

}  // namespace collsim
