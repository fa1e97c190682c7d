#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/core/error.hpp"
#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/hw/transport.hpp"

namespace collsim {

using DeviceId = uint32_t;

// GPU generations, as NCCL's tuning tables distinguish them (src/graph/tuning.cc
// indexes its caps by compute capability: Volta, Ampere, Hopper, Blackwell).
enum class GpuArch { unknown, volta, turing, ampere, ada, hopper, blackwell };

enum class DeviceKind { gpu, nvswitch, pcie_switch, root_complex, nic, network_switch };

struct Device {
    std::string name;
    DeviceKind kind = DeviceKind::gpu;
    Time forwarding_latency{};   // added to every path that passes through this device
    // GPUs: costs local reductions. Root complexes: when set, the host has no
    // PCIe peer-to-peer, so traffic crossing it is staged through host memory
    // and shares this bandwidth (a GeForce box without P2P).
    Bandwidth memory_bandwidth;
    // Switches only: can reduce data in the switch (NVLink SHARP / NVLS on an
    // NVSwitch, SHARP on an InfiniBand switch).
    bool in_network_reduction = false;
    GpuArch arch = GpuArch::unknown;  // GPUs only
    // NICs only: the transport NCCL's traffic takes through it, and what its
    // software path costs per message on top of NCCL's NET step (transport.hpp).
    NetTransport transport = NetTransport::ib;
    Time software_latency{};
    SourceLocation where;
};

std::string_view to_string(DeviceKind k);
// Accepts the YAML spellings: gpu, nvswitch, pcie_switch, root_complex (or cpu), nic, switch.
std::optional<DeviceKind> device_kind_from(std::string_view s);
std::string_view device_kind_choices();
std::string_view to_string(GpuArch a);
std::optional<GpuArch> gpu_arch_from(std::string_view s);
std::string_view gpu_arch_choices();

}  // namespace collsim
