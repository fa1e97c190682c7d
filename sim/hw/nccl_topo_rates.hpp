#pragma once
// The hardware figures an NCCL topology dump does not carry, looked up from
// what it does carry: the GPU's compute capability (sm) or AMD gcn name, the
// PCIe link speed string, the CPU's vendor and model. Every figure cites its
// public source in nccl_topo_rates.cpp.
#include <optional>
#include <string>
#include <string_view>

#include "sim/core/units.hpp"
#include "sim/hw/device.hpp"

namespace collsim::nccl_topo {

// NVIDIA compute capability x 10 (sm="90") to the arch collsim models.
std::optional<GpuArch> arch_from_sm(int sm);

struct GpuFigures {
    Bandwidth memory_bandwidth;
    std::string_view part;  // the part the figure is of ("H100 SXM5"), for the note
};
// Memory bandwidth of the flagship part of an NVIDIA sm or AMD gcn ("gfx942");
// nullopt where the table has none.
std::optional<GpuFigures> gpu_figures(int sm, std::string_view gcn);

// Nominal bandwidth per direction of one NVLink of a GPU of compute capability sm.
std::optional<Bandwidth> nvlink_rate(int sm);
// Nominal bandwidth per direction of one xGMI (Infinity Fabric) link of an AMD GPU.
std::optional<Bandwidth> xgmi_rate(std::string_view gcn);

// PCIe generation from sysfs's link_speed ("16.0 GT/s PCIe", "8 GT/s").
std::optional<int> pcie_gen_from_speed(std::string_view link_speed);

struct CpuLink {
    Bandwidth bandwidth;
    std::string_view what;  // "Intel Sapphire Rapids UPI", for the note
};
// The socket-to-socket interconnect NCCL assumes for this CPU.
CpuLink cpu_interconnect(std::string_view vendor, int family, int model);

}  // namespace collsim::nccl_topo
