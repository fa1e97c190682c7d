#include "sim/replay/gpu_card.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include "sim/core/name_table.hpp"

namespace collsim {

namespace {
constexpr NameTable<FlopType, 12> kFlopNames{{
    {"fp64", FlopType::fp64}, {"double", FlopType::fp64}, {"fp32", FlopType::fp32}, {"float", FlopType::fp32},
    {"tf32", FlopType::tf32}, {"fp16", FlopType::fp16}, {"half", FlopType::fp16},   {"bf16", FlopType::bf16},
    {"bfloat16", FlopType::bf16}, {"fp8", FlopType::fp8}, {"int8", FlopType::int8}, {"fp8_e4m3", FlopType::fp8},
}};

constexpr double T = 1e12;
constexpr int64_t GB = 1'000'000'000;

// Large BF16/FP8 GEMMs through cuBLAS run at about 75-85% of NVIDIA's dense
// datasheet peak (the peak assumes the boost clock, which tensor-core load
// pulls down): an estimate, not fitted to any run this project compares with
// (examples/planning/README.md). MI300X: AMD's own GEMM libraries reach a
// lower share of its larger peak; 0.6 is an estimate likewise.
constexpr double kNvidiaSustained = 0.8;
constexpr double kMi300xSustained = 0.6;

Bytes gb(double n) { return Bytes{static_cast<int64_t>(n * static_cast<double>(GB))}; }

// Order of peak_flops: fp64, fp32, tf32, fp16, bf16, fp8, int8. Dense figures:
// the datasheets print tensor-core rates "with sparsity", twice the dense rate.
// Capacities are the datasheets' GB (10^9 bytes).
std::vector<GpuCard> make_cards() {
    return {
        {"a100-sxm-40gb", GpuArch::ampere, {19.5 * T, 19.5 * T, 156 * T, 312 * T, 312 * T, 0, 624 * T},
         Bandwidth::bytes_per_s(1'555'000'000'000),
         "NVIDIA A100 Tensor Core GPU datasheet (SXM 40GB: HBM2 1,555 GB/s; FP64 tensor 19.5, TF32 156, "
         "BF16/FP16 312, INT8 624 TFLOP/s dense; 108 SMs)",
         gb(40), 108, kNvidiaSustained},
        {"a100-sxm-80gb", GpuArch::ampere, {19.5 * T, 19.5 * T, 156 * T, 312 * T, 312 * T, 0, 624 * T},
         Bandwidth::bytes_per_s(2'039'000'000'000),
         "NVIDIA A100 Tensor Core GPU datasheet (SXM 80GB: HBM2e 2,039 GB/s; same compute as 40GB)", gb(80), 108,
         kNvidiaSustained},
        {"h100-sxm", GpuArch::hopper, {67 * T, 67 * T, 494.7 * T, 989.4 * T, 989.4 * T, 1978.9 * T, 1978.9 * T},
         Bandwidth::bytes_per_s(3'350'000'000'000),
         "NVIDIA H100 Tensor Core GPU datasheet (SXM5 80GB: HBM3 3.35 TB/s; FP64 tensor 67, TF32 494.7, BF16/FP16 "
         "989.4, FP8/INT8 1,978.9 TFLOP/s dense; 132 SMs)",
         gb(80), 132, kNvidiaSustained},
        {"h200-sxm", GpuArch::hopper, {67 * T, 67 * T, 494.7 * T, 989.4 * T, 989.4 * T, 1978.9 * T, 1978.9 * T},
         Bandwidth::bytes_per_s(4'800'000'000'000),
         "NVIDIA H200 Tensor Core GPU datasheet (SXM: 141GB HBM3e 4.8 TB/s; compute as H100 SXM)", gb(141), 132,
         kNvidiaSustained},
        {"b200", GpuArch::blackwell, {40 * T, 80 * T, 1100 * T, 2250 * T, 2250 * T, 4500 * T, 4500 * T},
         Bandwidth::bytes_per_s(8'000'000'000'000),
         "NVIDIA HGX B200 datasheet, 1,000 W part (180GB HBM3e 8 TB/s; FP64 40, TF32 1,100, BF16/FP16 2,250, "
         "FP8/INT8 4,500 TFLOP/s dense; [2nd] table at glennklockwood.com/garden/processors/B200; 148 SMs)",
         gb(180), 148, kNvidiaSustained},
        {"gb200", GpuArch::blackwell, {45 * T, 80 * T, 1250 * T, 2500 * T, 2500 * T, 5000 * T, 5000 * T},
         Bandwidth::bytes_per_s(8'000'000'000'000),
         "NVIDIA GB200 NVL72 datasheet, per Blackwell GPU (NVL72 figures / 72: 186GB HBM3e 8 TB/s; FP64 45, TF32 "
         "1,250, BF16/FP16 2,500, FP8/INT8 5,000 TFLOP/s dense)",
         gb(186), 148, kNvidiaSustained},
        {"gb300", GpuArch::blackwell, {1.39 * T, 80 * T, 1250 * T, 2500 * T, 2500 * T, 5000 * T, 0},
         Bandwidth::bytes_per_s(8'000'000'000'000),
         "NVIDIA GB300 NVL72 datasheet, per Blackwell Ultra GPU (NVL72 figures / 72: 288GB HBM3e 8 TB/s; FP64 1.39, "
         "TF32 1,250, BF16/FP16 2,500, FP8 5,000 TFLOP/s dense; INT8 cut down, left out; 160 SMs)",
         gb(288), 160, kNvidiaSustained},
        {"l40s", GpuArch::ada, {0, 91.6 * T, 183 * T, 362.05 * T, 362.05 * T, 733 * T, 733 * T},
         Bandwidth::bytes_per_s(864'000'000'000),
         "NVIDIA L40S datasheet (48GB GDDR6 864 GB/s; FP32 91.6, TF32 183, BF16/FP16 362.05, FP8/INT8 733 TFLOP/s "
         "dense; FP64 not given; 142 SMs)",
         gb(48), 142, kNvidiaSustained},
        {"rtx-4090", GpuArch::ada, {1.29 * T, 82.6 * T, 82.6 * T, 165.2 * T, 165.2 * T, 330.3 * T, 660.6 * T},
         Bandwidth::bytes_per_s(1'008'000'000'000),
         "NVIDIA Ada Lovelace architecture whitepaper, GeForce RTX 4090 (24GB GDDR6X 1,008 GB/s; FP16/BF16 tensor "
         "with FP32 accumulate 165.2, FP8 with FP32 accumulate 330.3, INT8 660.6 TFLOP/s dense; 128 SMs)",
         gb(24), 128, kNvidiaSustained},
        {"mi300x", GpuArch::unknown, {163.4 * T, 163.4 * T, 653.7 * T, 1307.4 * T, 1307.4 * T, 2614.9 * T, 2614.9 * T},
         Bandwidth::bytes_per_s(5'300'000'000'000),
         "AMD Instinct MI300X datasheet (192GB HBM3 5.3 TB/s; FP64 matrix 163.4, TF32 653.7, BF16/FP16 1,307.4, "
         "FP8/INT8 2,614.9 TFLOP/s dense; 304 compute units)",
         gb(192), 304, kMi300xSustained},
    };
}

// A non-negative decimal (exponent allowed: "1.2e12") followed by an optional
// SI-prefixed FLOP unit ("FLOP", "GFLOP"; "TFLOP/s" or "TFLOPS" for rates).
double parse_counted(std::string_view text, bool rate, const char* expected) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    double v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || !std::isfinite(v) || v < 0) throw std::invalid_argument(expected);
    std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
    while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
    if (unit.empty()) {
        if (rate) throw std::invalid_argument(expected);
        return v;
    }
    constexpr std::array<std::pair<char, double>, 6> kPrefix{
        {{'k', 1e3}, {'M', 1e6}, {'G', 1e9}, {'T', 1e12}, {'P', 1e15}, {'E', 1e18}}};
    for (auto [c, scale] : kPrefix)
        if (unit.front() == c) {
            v *= scale;
            unit.remove_prefix(1);
            break;
        }
    const bool ok = rate ? (unit == "FLOP/s" || unit == "FLOPS") : (unit == "FLOP" || unit == "FLOPs");
    if (!ok) throw std::invalid_argument(expected);
    return v;
}
}  // namespace

std::optional<FlopType> flop_type_from(std::string_view s) { return value_in(kFlopNames, s); }

std::string_view to_string(FlopType t) { return name_in(kFlopNames, t); }

std::string_view flop_type_choices() { return "one of fp64, fp32, tf32, fp16, bf16, fp8, int8"; }

const std::vector<GpuCard>& gpu_cards() {
    static const std::vector<GpuCard> cards = make_cards();
    return cards;
}

const GpuCard* find_gpu_card(std::string_view name) {
    for (const auto& c : gpu_cards())
        if (c.name == name) return &c;
    return nullptr;
}

std::string gpu_card_choices() {
    std::string out = "one of";
    for (std::size_t i = 0; i < gpu_cards().size(); ++i) out += (i ? ", " : " ") + gpu_cards()[i].name;
    return out;
}

const GpuCard* default_gpu_card(GpuArch arch) {
    switch (arch) {
        case GpuArch::ampere: return find_gpu_card("a100-sxm-80gb");
        case GpuArch::hopper: return find_gpu_card("h100-sxm");
        case GpuArch::blackwell: return find_gpu_card("b200");
        default: return nullptr;
    }
}

double parse_flops(std::string_view text) {
    // A bare number is a count; with a unit it must be FLOP with an SI prefix.
    return parse_counted(text, false, "a FLOP count like '1.2e12', '350GFLOP' or '4.5TFLOP'");
}

double parse_flop_rate(std::string_view text) {
    const double v = parse_counted(text, true, "a FLOP rate with a unit, like '989TFLOP/s' or '312TFLOPS'");
    if (v <= 0) throw std::invalid_argument("a positive FLOP rate");
    return v;
}

Time roofline_time(const Roofline& r, double flops, Bytes bytes) {
    double seconds = 0;
    if (flops > 0) {
        if (r.peak_flops <= 0) throw std::invalid_argument("no FLOP rate for this number format");
        seconds = flops / (r.peak_flops * r.flops_efficiency);
    }
    if (bytes.count() > 0) {
        const double mem = static_cast<double>(bytes.count()) /
                           (static_cast<double>(r.memory.bps()) * r.memory_efficiency);
        seconds = std::max(seconds, mem);
    }
    if (!(seconds * 1e12 < kClockLimitUs * 1e6)) throw std::invalid_argument("a compute time within 106 days, the longest the clock holds");
    return Time::from_ps(static_cast<int64_t>(std::ceil(seconds * 1e12)));
}

}  // namespace collsim
