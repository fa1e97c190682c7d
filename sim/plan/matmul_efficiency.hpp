#pragma once
// How long a GEMM and a memory-bound kernel take on one GPU. A GEMM runs at
// the card's dense peak for its number format, times the share a large GEMM
// sustains (GpuCard::matmul_sustained), times its wave efficiency: the output
// is cut into 128 x 128 tiles, one per SM at a time (CUTLASS's and cuBLAS's
// usual Ampere/Hopper BF16 tile), so a GEMM of 1.1 waves runs two. It can be
// no faster than reading its operands and writing its result from HBM.
#include <cstdint>

#include "sim/replay/gpu_card.hpp"

namespace collsim {

struct Gemm {
    int64_t m = 0, n = 0, k = 0;  // [m x k] x [k x n]
    int64_t count = 1;            // independent GEMMs of this shape (experts)
};

struct ComputeRates {
    const GpuCard* card = nullptr;
    double sustained = 0;  // the card's matmul_sustained unless overridden
};

double wave_efficiency(const Gemm& g, int sms);
// Seconds for the GEMM (2mnk FLOPs each) with operands of `value_bytes`.
double gemm_seconds(const ComputeRates& r, FlopType t, const Gemm& g, int value_bytes);
// Seconds to move `bytes` through HBM at the datasheet rate.
double memory_seconds(const ComputeRates& r, double bytes);
// Seconds for `flops` of a fused kernel (flash attention) at the sustained rate.
double flops_seconds(const ComputeRates& r, FlopType t, double flops);

}  // namespace collsim
