#pragma once
// Fault scenarios, loaded from YAML and resolved against a topology:
//
//   faults:
//     - {kind: down, target: "node0.nic3", at: 2ms}                   # forever
//     - {kind: down, target: "leaf3--*", at: 1ms, for: 500us}         # all of leaf3's ports
//     - {kind: degrade, target: "gpu3--nvswitch", bandwidth: 0.5, latency: 2us}
//     - {kind: flap, target: "leaf0--spine1", period: 1ms, duty: 0.5}  # up half of each period
//     - {kind: slow, target: "node1.gpu*", factor: 1.3}               # compute (replay)
//     - {kind: pause, target: "gpu5", at: 3ms, for: 1ms}               # compute (replay)
//     - {kind: straggler, target: "gpu*", per: step, p: 0.05, min: 1.2, max: 1.5}
//     - {kind: straggler, target: "node3.nic*", per: collective, p: 0.1, min: 2, max: 2}
//
// A target is a device name or a link "A--B" (either order); both take
// shell-style globs. A device target of a link fault hits every link of the
// device. A target that matches nothing is an error. A straggler on GPUs slows
// their compute; on links (a link, or a device that is not a GPU: a NIC, a
// switch) it divides their bandwidth (replay.cpp: LinkStragglers).
#include <optional>
#include <string>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/hw/topology.hpp"

namespace collsim {

enum class FaultKind { down, degrade, flap, slow, pause, straggler };
std::string_view to_string(FaultKind k);

struct Fault {
    FaultKind kind = FaultKind::down;
    std::string target;
    SourceLocation where;
    Time at{};
    std::optional<Time> duration;  // "for": how long; none = until the end
    double bandwidth_factor = 1.0;  // degrade
    Time added_latency{};           // degrade
    Time period{};                  // flap
    double duty = 0.5;              // flap: share of each period the link is up
    double factor = 1.0;            // slow: compute takes this many times longer
    std::string per = "step";       // straggler: "step" or "collective"
    double probability = 0;         // straggler
    double min_factor = 1.0, max_factor = 1.0;  // straggler: uniform slowdown range
    std::vector<LinkId> links;      // resolved link targets
    std::vector<DeviceId> gpus;     // resolved GPU targets

    bool on_links() const { return kind == FaultKind::down || kind == FaultKind::degrade || kind == FaultKind::flap; }
};

struct FaultPlan {
    std::string source;
    std::vector<Fault> faults;
};

FaultPlan load_fault_plan(const std::string& path, const Topology& topo);
FaultPlan parse_fault_plan(const std::string& yaml, const std::string& name, const Topology& topo);

// Shell-style match: '*' any run, '?' one character.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace collsim
