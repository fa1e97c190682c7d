#pragma once
// Runs a schedule without time: every rank starts with its own distinct
// contribution in each chunk of its input, and steps move and combine those
// contributions. Afterwards each (participant, chunk) says how many times
// every (rank, input chunk) went into it, so a schedule can be checked against
// what its operation defines: each contribution reduced exactly once, nothing
// missing, nothing twice.
//
// What each operation starts with and must end with (n ranks, the output
// split into n blocks of m chunks where the operation has per-rank blocks):
//   allreduce      every rank: chunk c = its own (r, c); ends with (q, c) of every q
//   reduce         as allreduce, checked on the root only
//   broadcast      the root holds (root, c); every rank ends with it, others start empty
//   allgather      rank q starts with block q; every rank ends with every block
//   reducescatter  every rank holds everything; rank r ends with block r summed over all q
//   alltoall       rank q's input block j goes to rank j; rank r's output block i
//                  holds rank i's input block r
//   sendrecv       rank r ends with the input of rank r-1 (nccl-tests' sendrecv ring)
// In place (input and output the same chunks, as the built-in algorithms work),
// allgather's rank q starts with block q of the buffer; with separate buffers
// (MSCCL) its input is m chunks.
//
// Steps run in a seeded random order that respects the dependencies only, so
// a schedule that works by accident of listing order (a missing dependency)
// is caught across seeds.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/exec/collective.hpp"
#include "sim/exec/schedule.hpp"

namespace collsim {

// Sorted (origin, times included) pairs; origin = rank * input_chunks + input chunk.
using Contributions = std::vector<std::pair<int, int>>;

struct SymbolicState {
    // value[participant][chunk]; empty where the participant holds nothing.
    std::vector<std::vector<Contributions>> value;
    std::string problem;  // empty when every step could run
};

SymbolicState run_symbolic(const Schedule& s, CollOp op, uint64_t order_seed, int root = 0);

// Empty when the final state is what `op` defines; otherwise the first mismatch.
std::string check_symbolic(const Schedule& s, CollOp op, const SymbolicState& st, int root = 0);

// Runs and checks in `orders` seeded random orders; empty when all pass.
std::string verify_schedule(const Schedule& s, CollOp op, int root = 0, int orders = 3);

}  // namespace collsim
