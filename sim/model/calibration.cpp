#include "sim/model/calibration.hpp"

#include <algorithm>
#include <cmath>

namespace collsim {

bool Calibration::is_default() const {
    return bandwidth_efficiency == std::array<double, 3>{1.0, 1.0, 1.0} && p2p_bandwidth_efficiency == 1.0 &&
           nvls_bandwidth_efficiency == 1.0 &&
           hop_latency_delta == std::array<Time, 3>{} && base_latency.empty() && op_base_latency.empty() && size_corrections.empty() &&
           launch_per_gpu == kDefaultLaunchPerGpu;
}

Protocol calibrated(Protocol p, NcclFamily family, const Calibration& c, std::optional<CollOp> op) {
    for (std::size_t k = 0; k < 3; ++k) p.hop_latency[k] = std::max(Time{}, p.hop_latency[k] + c.hop_latency_delta[k]);
    if (op) {
        auto it = c.op_base_latency.find({*op, family, p.kind});
        if (it != c.op_base_latency.end()) {
            p.base_latency = it->second;
            return p;
        }
    }
    auto it = c.base_latency.find({family, p.kind});
    if (it != c.base_latency.end()) p.base_latency = it->second;
    return p;
}

Protocol point_to_point(Protocol p, const Calibration& c, double channels_GBps) {
    p.rank_ceiling = Bandwidth::bytes_per_s(std::llround(channels_GBps * c.p2p_bandwidth_efficiency * 1e9));
    if (c.p2p_bandwidth_efficiency == 1.0) return p;
    constexpr int64_t kScale = 1'000'000;
    p.payload_num *= std::llround(c.p2p_bandwidth_efficiency * kScale);
    p.payload_den *= kScale;
    return p;
}

double size_factor(const Calibration& c, Bytes size) {
    for (const auto& s : c.size_corrections)
        if (size >= s.from && size < s.to) return s.factor;
    return 1.0;
}

Time launch_floor(int gpus_per_thread, const Calibration& c) { return c.launch_per_gpu * gpus_per_thread; }

Time with_launch_floor(Time device, int gpus_per_thread, const Calibration& c) {
    return std::max(device, launch_floor(gpus_per_thread, c));
}

}  // namespace collsim
