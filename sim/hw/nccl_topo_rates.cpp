#include "sim/hw/nccl_topo_rates.hpp"

#include <array>

namespace collsim::nccl_topo {

namespace {
constexpr Bandwidth nccl_gbps(double v) { return Bandwidth::bytes_per_s(static_cast<int64_t>(v * 1e9)); }
}  // namespace

// CUDA compute capabilities: 7.0 Volta, 7.5 Turing, 8.0/8.6/8.7 Ampere, 8.9
// Ada, 9.0 Hopper, 10.x/12.x Blackwell (NVIDIA CUDA C Programming Guide,
// "Compute Capabilities"). Pascal (6.x) has no table of its own in NCCL's
// tuning (src/graph/tuning.cc indexes Volta, Ampere, Hopper, Blackwell).
std::optional<GpuArch> arch_from_sm(int sm) {
    if (sm >= 100 && sm < 130) return GpuArch::blackwell;
    if (sm >= 90 && sm < 100) return GpuArch::hopper;
    if (sm == 89) return GpuArch::ada;
    if (sm >= 80 && sm < 89) return GpuArch::ampere;
    if (sm == 75) return GpuArch::turing;
    if (sm >= 70 && sm <= 72) return GpuArch::volta;
    return std::nullopt;
}

// Memory bandwidth of each generation's flagship part (a dump does not say
// which SKU it is; `topo import --gpu-memory-bandwidth` overrides):
// - sm 70 V100 SXM2 900 GB/s: NVIDIA V100 datasheet.
// - sm 75 T4 320 GB/s: NVIDIA T4 datasheet.
// - sm 80 A100 SXM4 80GB 2,039 GB/s: NVIDIA A100 datasheet (as dgx-a100.yaml).
// - sm 86 A40 696 GB/s: NVIDIA A40 datasheet / product brief PB-09976-001.
// - sm 89 L40S 864 GB/s: NVIDIA L40S datasheet (as the shipped PCIe files).
// - sm 90 H100 SXM5 3.35 TB/s: NVIDIA H100 datasheet (as dgx-h100.yaml).
// - sm 100 B200 8 TB/s: NVIDIA DGX B200 datasheet (as hgx-b200.yaml).
// - gfx942 MI300X 5.3 TB/s: AMD Instinct MI300X datasheet.
// - gfx90a MI250X 1.6 TB/s per GCD (RCCL sees each GCD as a GPU): AMD ROCm
//   documentation, "AMD Instinct MI250 microarchitecture".
// - gfx906 MI50/MI60 1 TB/s (1,024 GB/s) HBM2: AMD's MI50/MI60 launch release
//   (2018-11-06).
std::optional<GpuFigures> gpu_figures(int sm, std::string_view gcn) {
    if (gcn.starts_with("gfx")) gcn.remove_prefix(3);
    if (!gcn.empty()) {
        if (gcn.starts_with("942")) return GpuFigures{nccl_gbps(5300), "MI300X"};
        if (gcn.starts_with("90a")) return GpuFigures{nccl_gbps(1600), "MI250X (one GCD)"};
        if (gcn.starts_with("906")) return GpuFigures{nccl_gbps(1024), "MI60"};
        return std::nullopt;
    }
    struct Row {
        int sm_from, sm_to;
        GpuFigures f;
    };
    static constexpr std::array<Row, 7> kRows{{
        {70, 72, {nccl_gbps(900), "V100 SXM2"}},
        {75, 75, {nccl_gbps(320), "T4"}},
        {80, 80, {nccl_gbps(2039), "A100 SXM4 80GB"}},
        {86, 87, {nccl_gbps(696), "A40"}},
        {89, 89, {nccl_gbps(864), "L40S"}},
        {90, 90, {nccl_gbps(3350), "H100 SXM5"}},
        {100, 103, {nccl_gbps(8000), "B200"}},
    }};
    for (const Row& r : kRows)
        if (sm >= r.sm_from && sm <= r.sm_to) return r.f;
    return std::nullopt;
}

// Per link and direction (half the bidirectional figures vendors quote):
// - NVLink 2 (sm 70) and NVLink 3 (sm 80) and 4 (sm 90): 50 GB/s per link
//   bidirectional, 6, 12 and 18 links per GPU for 300, 600 and 900 GB/s
//   (NVIDIA NVLink and NVSwitch page; V100, A100, H100 datasheets).
// - sm 86 (GA102: A40, RTX A6000, RTX 3090): four x4 links of 14.0625 GB/s
//   per direction, 112.5 GB/s bidirectional in all (NVIDIA Ampere GA102 GPU
//   architecture whitepaper, "Third-Generation NVLink").
// - NVLink 5 (sm 100): 18 links of 100 GB/s bidirectional, 1.8 TB/s (NVIDIA
//   NVLink and NVSwitch page, Blackwell).
std::optional<Bandwidth> nvlink_rate(int sm) {
    if (sm >= 100 && sm < 130) return nccl_gbps(50);
    if (sm == 86 || sm == 87) return nccl_gbps(14.0625);
    if (sm >= 70 && sm < 100) return nccl_gbps(25);
    return std::nullopt;
}

// - gfx942 (MI300X): 16-lane Infinity Fabric links at 32 Gb/s per lane, 128
//   GB/s bidirectional per link, 7 links per GPU (AMD at the MI300 launch, as
//   reported by Wheeler's Network, "AMD Looks to Infinity for AI
//   Interconnects", 2024-01).
// - gfx90a (MI250X): 25 GT/s x 16 lanes = 50 GB/s per direction per link
//   (AMD ROCm documentation, "AMD Instinct MI250 microarchitecture").
std::optional<Bandwidth> xgmi_rate(std::string_view gcn) {
    if (gcn.starts_with("gfx")) gcn.remove_prefix(3);
    if (gcn.starts_with("942")) return nccl_gbps(64);
    if (gcn.starts_with("90a")) return nccl_gbps(50);
    return std::nullopt;
}

// The strings Linux writes to /sys/bus/pci/devices/*/current_link_speed,
// which NCCL copies: "8 GT/s" before kernel 5.7, "8.0 GT/s PCIe" after; the
// rates are PCI-SIG's per generation (2.5, 5, 8, 16, 32, 64 GT/s for Gen1 to
// Gen6), the same list NCCL reads (src/graph/topo.cc, kvDictPciGen).
std::optional<int> pcie_gen_from_speed(std::string_view s) {
    if (s.ends_with(" PCIe")) s.remove_suffix(5);
    static constexpr std::array<std::pair<std::string_view, int>, 11> kSpeeds{{
        {"2.5 GT/s", 1}, {"5 GT/s", 2}, {"5.0 GT/s", 2}, {"8 GT/s", 3}, {"8.0 GT/s", 3}, {"16 GT/s", 4},
        {"16.0 GT/s", 4}, {"32 GT/s", 5}, {"32.0 GT/s", 5}, {"64 GT/s", 6}, {"64.0 GT/s", 6},
    }};
    for (const auto& [text, gen] : kSpeeds)
        if (s == text) return gen;
    return std::nullopt;
}

// The figures NCCL plans with for the link between sockets (src/graph/topo.h:
// BDW_QPI_BW 6, SKL_QPI_BW 10, SRP_QPI_BW 22, ERP_QPI_BW 40, AMD_ZEN12_BW 16,
// AMD_ZEN34_BW 24, AMD_ZEN5_BW 32, ARM_BW 6 GB/s), each for the CPU
// generation it is named after, told apart by the CPUID the dump records:
// Intel family 6 model 0x55 Skylake-SP, 0x8F Sapphire Rapids, 0xCF Emerald
// Rapids; AMD family 0x17 Zen 1/2, 0x19 Zen 3/4, 0x1A Zen 5 (Intel and AMD
// processor programming references). They are what NCCL's own graph search
// assumes; vendors publish no per-direction figure a dump could be matched to.
CpuLink cpu_interconnect(std::string_view vendor, int family, int model) {
    if (vendor == "GenuineIntel") {
        if (model >= 0xCF) return {nccl_gbps(40), "Intel Emerald Rapids UPI (NCCL's ERP_QPI_BW)"};
        if (model >= 0x8F) return {nccl_gbps(22), "Intel Sapphire Rapids UPI (NCCL's SRP_QPI_BW)"};
        if (model >= 0x55) return {nccl_gbps(10), "Intel Skylake UPI (NCCL's SKL_QPI_BW)"};
        return {nccl_gbps(6), "Intel QPI (NCCL's BDW_QPI_BW)"};
    }
    if (vendor == "AuthenticAMD") {
        if (family >= 0x1A) return {nccl_gbps(32), "AMD Zen 5 Infinity Fabric (NCCL's AMD_ZEN5_BW)"};
        if (family >= 0x19) return {nccl_gbps(24), "AMD Zen 3/4 Infinity Fabric (NCCL's AMD_ZEN34_BW)"};
        return {nccl_gbps(16), "AMD Zen 1/2 Infinity Fabric (NCCL's AMD_ZEN12_BW)"};
    }
    return {nccl_gbps(6), "an unknown CPU's interconnect (NCCL's ARM_BW, its lowest)"};
}

}  // namespace collsim::nccl_topo
