#pragma once
// Carries out the additions of a combine tree on real numbers, rounding each
// partial sum to the accumulation format, and measures the results against
// the exact sum (double with Neumaier compensation: exact to far below any
// half or single precision rounding for the rank counts simulated).
#include <cstdint>
#include <vector>

#include "sim/numerics/combine_tree.hpp"
#include "sim/numerics/contribution_block.hpp"

namespace collsim {

struct ReductionStats {
    // The headline figures, which near-zero sums do not blow up: the normwise
    // relative error ||a - exact||_2 / ||exact||_2 over the elements of the
    // first finished rank's result (infinite when every exact sum is 0 and a
    // result is not), and the largest |a - exact| / sum|x|, the measure the
    // worst-case bound below is written in.
    double normwise_rel_error = 0;
    double max_abs_sum_error = 0;
    // Per element |a - exact| / |exact|: where contributions cancel to a sum
    // near zero, this is large (hundreds) even when every rounding is tiny.
    double max_rel_error = 0;
    double mean_rel_error = 0;   // over elements with a non-zero exact sum
    int64_t max_ulp = 0;         // against the exact sum rounded to the format
    // |error| / the worst-case bound, at most 1 for any order. With n ranks
    // each first adding k contributions, every contribution passes through at
    // most (k-1) + (n-1) roundings to the accumulation format: gamma_{n+k-2}
    // sum|x| (see summation_bound_factor). When the data format is coarser
    // than the accumulation, the result and the local sums (k > 1) are
    // rounded to it once more: u_data |sum|, plus u_data sum|x| for the
    // local sums, to first order.
    double max_bound_ratio = 0;
    bool ranks_bitwise_identical = true;
    int64_t elements = 0;
    std::vector<float> result;  // the first finished rank's result per element
};

// Every element sums `contributions` values, contributions / tree.ranks of
// them per rank (see contribution_block.hpp). Chunks are spread over the
// cores; the result does not depend on how many there are.
ReductionStats evaluate_tree(const CombineTree& tree, const InputData& inputs, Accumulation acc, int64_t elements,
                             int contributions);

// Worst-case bound on the error of summing n numbers in any order with unit
// roundoff u (Higham, Accuracy and Stability of Numerical Algorithms, eq. 4.4):
// gamma_{n-1} = (n-1)u / (1 - (n-1)u), times sum |x_i|; infinite when (n-1)u >= 1.
double summation_bound_factor(int n, double u);

}  // namespace collsim
