#pragma once
// The exact order in which a schedule adds up contributions: for every rank
// and chunk, a tree whose leaves are ranks' inputs and whose inner nodes are
// the additions the schedule performs, in the order it performs them.
#include <cstdint>
#include <vector>

#include "sim/exec/collective.hpp"
#include "sim/exec/schedule.hpp"

namespace collsim {

struct CombineTree {
    struct Node {
        int32_t left = -1, right = -1;  // inner node: left + right
        int32_t rank = -1;              // leaf: this rank's input
    };
    std::vector<Node> nodes;
    std::vector<std::vector<int32_t>> root;  // [rank][chunk]; -1 where the rank holds nothing
    std::vector<int64_t> chunk_offset;       // byte offset of each chunk; one extra entry for the end
    int ranks = 0;

    // Whether a root sums every rank's input exactly once (a finished result).
    bool complete(int32_t node) const;
    std::string describe(int32_t node) const;  // "((r0+r1)+r2)"
    // A hash of each root's shape, [rank][chunk]: equal hashes mean the same
    // association of additions (operand order is ignored: IEEE addition
    // commutes), so the same bits.
    std::vector<uint64_t> root_shapes() const;
};

// Runs the schedule's steps in `order` (see sim/exec/interpret.hpp). Throws
// std::logic_error if the schedule cannot run in that order.
CombineTree combine_tree(const Schedule& s, CollOp op, const std::vector<StepId>& order);

}  // namespace collsim
