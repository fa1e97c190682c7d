#pragma once
// Runs a schedule without time: every rank starts with its own distinct
// contribution in each chunk, and steps move and combine those contributions.
// Afterwards each (rank, chunk) says how many times every rank's input went
// into it, so a schedule can be checked against what its operation defines:
// each contribution reduced exactly once, nothing missing, nothing twice.
//
// Steps run in a seeded random order that respects the dependencies only, so
// a schedule that works by accident of listing order (a missing dependency)
// is caught across seeds.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/exec/collective.hpp"
#include "sim/exec/schedule.hpp"

namespace collsim {

// contributions[r] = how many times rank r's input is included.
using Contributions = std::vector<int>;

struct SymbolicState {
    // value[rank][chunk]; empty Contributions where the rank holds nothing.
    std::vector<std::vector<Contributions>> value;
    std::string problem;  // empty when every step could run
};

SymbolicState run_symbolic(const Schedule& s, CollOp op, uint64_t order_seed);

// Empty when the final state is what `op` defines; otherwise the first mismatch.
std::string check_symbolic(const Schedule& s, CollOp op, const SymbolicState& st);

}  // namespace collsim
