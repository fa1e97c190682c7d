#pragma once
// NCCL protocols as the executor costs them: a fixed launch latency per
// collective, a per-step latency that depends on the kind of path the step
// crosses, and the fraction of link bandwidth that carries payload.
#include <array>
#include <optional>
#include <string_view>

#include "sim/core/time.hpp"
#include "sim/hw/link.hpp"

namespace collsim {

struct Protocol {
    std::string_view name;
    Time base_latency;                // once per collective call
    std::array<Time, 3> hop_latency;  // per step, indexed by LinkClass (nvlink, pci, net)
    int64_t payload_num = 1, payload_den = 1;  // usable share of link bandwidth

    Time step_latency(LinkClass c) const { return hop_latency[static_cast<std::size_t>(c)]; }
};

// The ring algorithm's protocols as NCCL v2.30.7 models them.
std::optional<Protocol> ring_protocol(std::string_view name);
std::string_view ring_protocol_choices();

}  // namespace collsim
