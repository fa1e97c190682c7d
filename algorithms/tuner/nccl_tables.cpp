#include "algorithms/tuner/nccl_tables.hpp"

#include <vector>

namespace collsim::nccl {

namespace {
using Row = std::array<double, 3>;
// Rows: Volta, Ampere, Hopper, Blackwell; columns: 1 node, 2 nodes, more.
constexpr std::array<Row, 4> kLlMaxBws{{{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {282.0, 90.0, 70.0}}};
constexpr std::array<Row, 4> kRingLl128{{{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 36.7}, {40, 40, 40}}};
constexpr std::array<Row, 4> kTreeLl128{{{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}}};
constexpr std::array<Row, 4> kTree{{{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}}};
constexpr std::array<Row, 4> kNvlsTree{{{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0.0, 57.7, 45.5}, {0.0, 96.0, 80.0}}};
constexpr std::array<double, 4> kNvlsEff{0.0, 0.0, 0.85, 0.74};

constexpr std::array<std::array<double, 24>, 3> kTreeCorrection{{
    {1, 1, 1, 1, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1, 1, 1, 1, 1},           // LL
    {1, 1, 1, 1, 1, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1, 1, 1},          // LL128
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9},  // Simple
}};
}  // namespace

int arch_index(GpuArch a) {
    switch (a) {
        case GpuArch::volta:
        case GpuArch::turing: return 0;
        case GpuArch::ampere:
        case GpuArch::ada: return 1;
        case GpuArch::blackwell: return 3;
        case GpuArch::hopper:
        case GpuArch::unknown: return 2;
    }
    return 2;
}

int nodes_index(int nodes) { return nodes <= 1 ? 0 : nodes == 2 ? 1 : 2; }

double ll_max_bw(int row, int n) { return kLlMaxBws[static_cast<std::size_t>(row)][static_cast<std::size_t>(n)]; }
double per_ch_max_ring_ll128_bw(int a, int n) { return kRingLl128[static_cast<std::size_t>(a)][static_cast<std::size_t>(n)]; }
double per_ch_max_tree_ll128_bw(int a, int n) { return kTreeLl128[static_cast<std::size_t>(a)][static_cast<std::size_t>(n)]; }
double per_ch_max_tree_bw(int a, int n) { return kTree[static_cast<std::size_t>(a)][static_cast<std::size_t>(n)]; }
double per_ch_max_nvls_tree_bw(int a, int n) { return kNvlsTree[static_cast<std::size_t>(a)][static_cast<std::size_t>(n)]; }
double nvls_efficiency(int a) { return kNvlsEff[static_cast<std::size_t>(a)]; }

double tree_correction(ProtoKind p, int64_t bytes) {
    int idx = 0;
    for (int64_t v = bytes >> 6; v > 1; v >>= 1) ++idx;
    if (idx >= 24) return 1.0;
    return kTreeCorrection[static_cast<std::size_t>(p)][static_cast<std::size_t>(idx)];
}

double nvlink_speed(GpuArch a) {
    if (a == GpuArch::hopper) return 20.6;
    if (a == GpuArch::blackwell) return 40.1;
    return 20.0;
}

const std::vector<double>& search_speeds(GpuArch a) {
    // NCCL v2.30.7 src/graph/search.cc speed arrays for intra-node search.
    static const std::vector<double> kDefault{40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};
    static const std::vector<double> kSm90{60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3};
    static const std::vector<double> kSm100{90, 80, 70, 60, 50, 45, 40, 30, 24, 20, 19, 18};
    if (a == GpuArch::hopper) return kSm90;
    if (a == GpuArch::blackwell) return kSm100;
    return kDefault;
}

const std::vector<double>& search_speeds_inter(GpuArch a) {
    // NCCL v2.30.7 src/graph/search.cc speedArrayInter, sm90SpeedArrayInter,
    // sm100SpeedArrayInter.
    static const std::vector<double> kDefault{48, 30, 28, 24, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4, 1.2, 0.24, 0.12};
    static const std::vector<double> kSm90{48, 45, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12};
    static const std::vector<double> kSm100{96, 86, 80, 48,  45.1, 42,  40,  30,  24,   22,
                                            20, 17.5, 15, 12, 6,    3,   2.4, 1.2, 0.24, 0.12};
    if (a == GpuArch::hopper) return kSm90;
    if (a == GpuArch::blackwell) return kSm100;
    return kDefault;
}

}  // namespace collsim::nccl
