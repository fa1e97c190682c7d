#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "sim/core/error.hpp"
#include "sim/hw/device.hpp"

namespace collsim {

using LinkId = uint32_t;
// One direction of a full-duplex link: 2*link for a->b, 2*link+1 for b->a.
using ChannelId = uint32_t;

// xgmi: AMD Infinity Fabric between GPUs (RCCL's <xgmi>), which RCCL plans
// with as NCCL does with NVLink.
enum class LinkKind { nvlink, pcie, network, cpu, xgmi };

// NCCL groups its per-hop latencies by the kind of path (src/graph/tuning.cc):
// NVLink, PCI (PCIe and CPU interconnect) and NET.
enum class LinkClass { nvlink, pci, net };

struct Link {
    DeviceId a = 0, b = 0;
    LinkKind kind = LinkKind::nvlink;
    Bandwidth bandwidth;  // per direction
    Time latency{};
    int pcie_gen = 0;  // 0 unless given as generation + lanes
    int pcie_lanes = 0;
    SourceLocation where;
};

std::string_view to_string(LinkKind k);
std::optional<LinkKind> link_kind_from(std::string_view s);
std::string_view link_kind_choices();
LinkClass link_class(LinkKind k);

}  // namespace collsim
