#include "sim/hw/analysis.hpp"
#include "sim/hw/max_flow.hpp"

namespace collsim {

Bandwidth bisection_bandwidth(const Topology& topo) {
    const auto& gpus = topo.gpus();
    if (gpus.size() < 2) return Bandwidth{};
    const auto n = static_cast<uint32_t>(topo.devices().size());
    const uint32_t source = n, sink = n + 1;
    MaxFlow flow(n + 2);
    // Each link direction is its own capacity (full duplex).
    for (const Link& l : topo.links()) {
        flow.add_arc(l.a, l.b, l.bandwidth.bps());
        flow.add_arc(l.b, l.a, l.bandwidth.bps());
    }
    // Transit through a GPU gains nothing here: every GPU is already a source
    // or a sink of unbounded capacity.
    constexpr int64_t kUnbounded = INT64_MAX / 4;
    const std::size_t half = gpus.size() / 2;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        if (i < half)
            flow.add_arc(source, gpus[i], kUnbounded);
        else
            flow.add_arc(gpus[i], sink, kUnbounded);
    }
    return Bandwidth::bytes_per_s(flow.run(source, sink));
}

}  // namespace collsim
