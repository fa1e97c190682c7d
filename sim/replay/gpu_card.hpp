#pragma once
// GPU cards for costing compute by a roofline: peak dense FLOP/s per number
// format and HBM bandwidth, each figure from the vendor's datasheet (cited in
// gpu_card.cpp). A compute op takes the longer of its FLOPs at the peak rate
// and its memory traffic at the HBM rate, each scaled by an efficiency.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/hw/device.hpp"

namespace collsim {

enum class FlopType { fp64, fp32, tf32, fp16, bf16, fp8, int8 };
inline constexpr std::size_t kFlopTypes = 7;

// Accepts fp64/double, fp32/float, tf32, fp16/half, bf16/bfloat16, fp8, int8.
std::optional<FlopType> flop_type_from(std::string_view s);
std::string_view to_string(FlopType t);
std::string_view flop_type_choices();

struct GpuCard {
    std::string name;
    GpuArch arch = GpuArch::unknown;
    std::array<double, kFlopTypes> peak_flops{};  // dense FLOP/s (tensor cores where they apply); 0: unsupported
    Bandwidth memory_bandwidth;                   // HBM
    std::string source;                           // where the figures come from
    Bytes memory_capacity;                        // HBM (or GDDR) per GPU; 0: not known (custom cards)
    int sms = 0;                                  // streaming multiprocessors (AMD: compute units)
    // Share of the dense peak a large GEMM sustains (clocks under tensor
    // load, kernel efficiency); the planner's matmul model starts from it.
    double matmul_sustained = 0;

    double peak(FlopType t) const { return peak_flops[static_cast<std::size_t>(t)]; }
};

const std::vector<GpuCard>& gpu_cards();
const GpuCard* find_gpu_card(std::string_view name);
std::string gpu_card_choices();
// The card a topology's GPU generation most likely is (its SXM part).
const GpuCard* default_gpu_card(GpuArch arch);

// "1.2e12", "350GFLOP", "4.5TFLOP": a count of floating-point operations.
double parse_flops(std::string_view text);
// "989TFLOP/s", "312TFLOPS": a rate.
double parse_flop_rate(std::string_view text);

struct Roofline {
    double peak_flops = 0;  // FLOP/s of the op's number format
    Bandwidth memory;       // HBM
    double flops_efficiency = 1.0, memory_efficiency = 1.0;
};

// max(flops / (peak x eff), bytes / (hbm x eff)), rounded up to a picosecond.
Time roofline_time(const Roofline& r, double flops, Bytes bytes);

}  // namespace collsim
