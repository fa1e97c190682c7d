#pragma once
// Link faults acting on a running simulation: a link goes down (its capacity
// drops to zero, and flows on it stall, as NCCL's do: they wait rather than
// fail), is degraded (a share of its bandwidth, added latency), or flaps.
#include "sim/exec/simulate.hpp"
#include "sim/faults/fault_plan.hpp"

namespace collsim {

// Schedules the plan's link faults on a network (compute faults are left to
// the caller); `running` says whether the simulated work still runs, so that
// flapping stops with it.
void apply_link_faults(const FaultPlan& plan, Simulator& sim, Network& net, std::function<bool()> running);

// The plan's link faults as a setup for simulate_schedule. Throws InputError
// for a compute fault (slow, pause) or a straggler: those need a replay's
// compute, steps and sequence of collectives.
NetworkSetup link_fault_setup(const FaultPlan& plan);

}  // namespace collsim
