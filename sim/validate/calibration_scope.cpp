#include "sim/validate/calibration_scope.hpp"

#include <cstddef>

namespace collsim {

RunScope run_scope(const Dataset& d, const Topology& machine) {
    RunScope s;
    s.multi_node = d.nodes > 1;
    if (s.multi_node)
        for (const Device& dev : machine.devices())
            if (dev.kind == DeviceKind::nic) s.transports.insert(dev.transport);
    return s;
}

Calibration carried_calibration(const Calibration& fitted, const Calibration& start, const RunScope& from,
                                const RunScope& to) {
    Calibration c = fitted;
    c.launch_per_gpu = start.launch_per_gpu;
    const bool same_network = from.multi_node && to.multi_node && from.transports == to.transports;
    if (!same_network) {
        constexpr auto net = static_cast<std::size_t>(LinkClass::net);
        c.bandwidth_efficiency[net] = start.bandwidth_efficiency[net];
        c.hop_latency_delta[net] = start.hop_latency_delta[net];
    }
    if (from.multi_node != to.multi_node || (from.multi_node && !same_network)) {
        c.base_latency = start.base_latency;
        c.op_base_latency = start.op_base_latency;
    }
    return c;
}

}  // namespace collsim
