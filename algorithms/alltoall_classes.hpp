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
//   the mean (a perfectly spread fabric), and lose the collisions' hot links.
//   A role's pooled constraint is the sum of its links' constraints, so the
//   pooled roles admit every rate the hashed links admit, and the classes
//   come out faster in every case measured (not a theorem: under max-min one
//   flow's gain can be another's loss). How much faster
//   depends on whether the hashed links bind: measured against the per-pair
//   form (alltoall_classes_test.cpp; 64 MiB, rail-optimised 2-tier fat-trees
//   of DGX H100), 0% at 128 ranks (the PCIe links bind), 0-2% at 1:1 with 256
//   and 512 ranks, 3.5% at 1:1 with 1,024, 8-10% at 2:1 with 256-1,024 ranks,
//   where the leaves' uplinks bind and the hottest of them sets the pace.
//   kClassesFastBy bounds it, and the output states it (the `# model:` line).
//   An exact form would run the pairs whose hashed routes coincide as one
//   weighted flow on the network (Network::start_flow's weight); but every
//   pair's route ends on its own GPU's links, so such classes are single pairs
//   and the n^2 routes (30 us each) are what the classes exist to avoid.
// - Single-path routing puts every pair on path 0, which the pooled roles
//   cannot see (16x off on a 2:1 fat-tree): no classes. Adaptive routing's
//   closed form takes its load-free choice, a hashed spread like ECMP's; in
//   the flow tiers it steers by load, which the classes take as even.
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

// The most the classes' time falls below the per-pair form's, as a share of
// it, on the fabrics measured (the ECMP bullet above; tests hold it).
inline constexpr double kClassesFastBy = 0.12;

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
