// Names of device and link kinds as they appear in topology files.
#include <array>
#include <utility>

#include "sim/core/name_table.hpp"
#include "sim/hw/device.hpp"
#include "sim/hw/link.hpp"

namespace collsim {

namespace {
constexpr NameTable<DeviceKind, 7> kDeviceKinds{{
    {"gpu", DeviceKind::gpu},
    {"nvswitch", DeviceKind::nvswitch},
    {"pcie_switch", DeviceKind::pcie_switch},
    {"root_complex", DeviceKind::root_complex},
    {"cpu", DeviceKind::root_complex},
    {"nic", DeviceKind::nic},
    {"switch", DeviceKind::network_switch},
}};

constexpr NameTable<GpuArch, 6> kArchs{{
    {"volta", GpuArch::volta},   {"turing", GpuArch::turing}, {"ampere", GpuArch::ampere},
    {"ada", GpuArch::ada},       {"hopper", GpuArch::hopper}, {"blackwell", GpuArch::blackwell},
}};

constexpr NameTable<LinkKind, 5> kLinkKinds{{
    {"nvlink", LinkKind::nvlink},
    {"pcie", LinkKind::pcie},
    {"network", LinkKind::network},
    {"cpu", LinkKind::cpu},
    {"xgmi", LinkKind::xgmi},
}};
}  // namespace

std::string_view to_string(DeviceKind k) { return name_in(kDeviceKinds, k); }

std::optional<DeviceKind> device_kind_from(std::string_view s) { return value_in(kDeviceKinds, s); }

std::string_view device_kind_choices() { return "one of gpu, nvswitch, pcie_switch, root_complex, cpu, nic, switch"; }

std::string_view to_string(GpuArch a) { return name_in(kArchs, a, "unknown"); }

std::optional<GpuArch> gpu_arch_from(std::string_view s) { return value_in(kArchs, s); }

std::string_view gpu_arch_choices() { return "one of volta, turing, ampere, ada, hopper, blackwell"; }

std::string_view to_string(LinkKind k) { return name_in(kLinkKinds, k); }

std::optional<LinkKind> link_kind_from(std::string_view s) { return value_in(kLinkKinds, s); }

std::string_view link_kind_choices() { return "one of nvlink, pcie, network, cpu, xgmi"; }

LinkClass link_class(LinkKind k) {
    switch (k) {
        case LinkKind::nvlink:
        case LinkKind::xgmi: return LinkClass::nvlink;
        case LinkKind::network: return LinkClass::net;
        case LinkKind::pcie:
        case LinkKind::cpu: return LinkClass::pci;
    }
    return LinkClass::pci;
}

}  // namespace collsim
