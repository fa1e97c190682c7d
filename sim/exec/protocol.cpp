#include "sim/exec/protocol.hpp"

#include "sim/core/time.hpp"

namespace collsim {

using namespace literals;

// Latencies from NCCL v2.30.7 src/graph/tuning.cc (commit 73cf1122):
// baseLatencies[Ring][Simple] = 8.4 us and hwLatencies[NVLINK|PCI|NET][Ring][Simple]
// = 3.4 / 5.7 / 14.0 us per step (see MODEL-FACTS.md, tables 1 and 2). NCCL's
// per-step figures are dominated by software (flag polling, proxy hand-off), so
// the executor adds them on top of the physical path latency of each step.
// Simple moves raw payload in large slices: all link bandwidth carries data.
std::optional<Protocol> ring_protocol(std::string_view name) {
    if (name == "simple")
        return Protocol{"simple", 8400_ns, {3400_ns, 5700_ns, 14000_ns}, 1, 1};
    return std::nullopt;
}

std::string_view ring_protocol_choices() { return "simple"; }

}  // namespace collsim
