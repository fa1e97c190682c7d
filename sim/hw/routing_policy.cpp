#include "sim/hw/routing_policy.hpp"

#include "sim/core/random.hpp"

namespace collsim {

namespace {
// Folds one more value into a running hash, order-sensitively.
uint64_t combine(uint64_t h, uint64_t v) { return mix64(h ^ mix64(v + 0x9e3779b97f4a7c15ULL)); }
}  // namespace

std::optional<RoutingMode> routing_mode_from(std::string_view s) {
    if (s == "single") return RoutingMode::single;
    if (s == "ecmp") return RoutingMode::ecmp;
    if (s == "adaptive") return RoutingMode::adaptive;
    return std::nullopt;
}

std::string_view routing_mode_choices() { return "one of ecmp, single, adaptive"; }

uint64_t RoutingPolicy::flow_hash(DeviceId src, DeviceId dst, uint64_t flow) const {
    return combine(combine(combine(mix64(seed_), src), dst), flow);
}

Path RoutingPolicy::route(Routes& routes, DeviceId src, DeviceId dst, uint64_t flow,
                          const std::function<uint64_t(ChannelId)>& load) const {
    switch (mode_) {
        case RoutingMode::single: return routes.path(src, dst, 0);
        case RoutingMode::ecmp: {
            const uint64_t paths = routes.path_count(src, dst);
            return routes.path(src, dst, paths <= 1 ? 0 : flow_hash(src, dst, flow) % paths);
        }
        case RoutingMode::adaptive: return routes.least_loaded_path(src, dst, load, flow_hash(src, dst, flow));
    }
    return routes.path(src, dst, 0);
}

}  // namespace collsim
