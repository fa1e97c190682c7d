#pragma once
// Which of the equal-cost paths a new flow takes.
//   single:   always path 0 (deterministic routing, no multipath).
//   ecmp:     a seeded hash of (src, dst, flow id) modulo the path count, as
//             switches hash a packet's five-tuple: a flow keeps its path, and
//             different flows can collide on one link while another idles.
//   adaptive: the equal-cost path whose busiest link carries the fewest
//             active flows when the flow starts (then the fewest in total),
//             like adaptive routing that steers by queue occupancy.
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "sim/hw/routes.hpp"

namespace collsim {

enum class RoutingMode { single, ecmp, adaptive };

std::optional<RoutingMode> routing_mode_from(std::string_view s);
std::string_view routing_mode_choices();

class RoutingPolicy {
public:
    RoutingPolicy() = default;
    RoutingPolicy(RoutingMode mode, uint64_t seed) : mode_(mode), seed_(seed) {}

    // `load` gives the active flows on a channel (adaptive only).
    Path route(Routes& routes, DeviceId src, DeviceId dst, uint64_t flow,
               const std::function<uint64_t(ChannelId)>& load) const;
    // The ECMP hash of a flow, also used to break ties under adaptive routing.
    uint64_t flow_hash(DeviceId src, DeviceId dst, uint64_t flow) const;

    RoutingMode mode() const { return mode_; }

private:
    RoutingMode mode_ = RoutingMode::ecmp;
    uint64_t seed_ = 0;
};

}  // namespace collsim
