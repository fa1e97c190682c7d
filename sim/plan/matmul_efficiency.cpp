#include "sim/plan/matmul_efficiency.hpp"

#include <algorithm>

namespace collsim {

namespace {
constexpr int64_t kTile = 128;
}

double wave_efficiency(const Gemm& g, int sms) {
    if (sms <= 0) return 1.0;
    const int64_t tiles = ((g.m + kTile - 1) / kTile) * ((g.n + kTile - 1) / kTile) * g.count;
    const int64_t waves = (tiles + sms - 1) / sms;
    return static_cast<double>(tiles) / static_cast<double>(waves * sms);
}

double flops_seconds(const ComputeRates& r, FlopType t, double flops) {
    const double peak = r.card->peak(t);
    return flops / (peak * r.sustained);
}

double memory_seconds(const ComputeRates& r, double bytes) {
    return bytes / static_cast<double>(r.card->memory_bandwidth.bps());
}

double gemm_seconds(const ComputeRates& r, FlopType t, const Gemm& g, int value_bytes) {
    if (g.m <= 0 || g.n <= 0 || g.k <= 0 || g.count <= 0) return 0;
    const double m = static_cast<double>(g.m), n = static_cast<double>(g.n), k = static_cast<double>(g.k);
    const double count = static_cast<double>(g.count);
    const double compute = flops_seconds(r, t, 2 * m * n * k * count) / wave_efficiency(g, r.card->sms);
    const double traffic = memory_seconds(r, (m * k + k * n + m * n) * value_bytes * count);
    return std::max(compute, traffic);
}

}  // namespace collsim
