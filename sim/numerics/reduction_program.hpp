#pragma once
// One finished result of a combine tree, flattened into a short list of
// vector operations over element blocks. The combine order is the same for
// every element of a chunk, so it is derived once per chunk and then applied
// to whole blocks of contiguous values: a tight loop per addition instead of
// a walk of the tree per element.
#include <cstdint>
#include <vector>

#include "sim/numerics/combine_tree.hpp"
#include "sim/numerics/float_format.hpp"

namespace collsim {

struct ReductionOp {
    enum Kind : uint8_t {
        load_input,  // slot[dst] = input[src]
        add_input,   // slot[dst] = round(slot[dst] + input[src])
        add_slot,    // slot[dst] = round(slot[dst] + slot[src])
    };
    Kind kind;
    int32_t dst;
    int32_t src;
};

struct ReductionProgram {
    std::vector<ReductionOp> ops;
    int slots = 1;  // scratch blocks needed; the result ends in slot 0
};

// Sethi-Ullman order (the heavier operand first, into the lower slot) keeps
// the scratch small: one slot for a ring's chain of additions, log2(n) + 1
// for a balanced tree. Swapping operands is exact, since IEEE addition
// commutes. Throws std::logic_error for a node that is not in the tree.
ReductionProgram compile_reduction(const CombineTree& tree, int32_t root);

// Runs the program on `count` elements. inputs[r] holds rank r's values;
// scratch holds program.slots blocks of `stride` floats; every addition is
// rounded to `accum`. Returns slot 0, the result.
const float* run_reduction(const ReductionProgram& program, FloatFormat accum, const float* const* inputs,
                           std::size_t count, float* scratch, std::size_t stride);

}  // namespace collsim
