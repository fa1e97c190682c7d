#include "sim/model/link_efficiency.hpp"

#include "algorithms/tuner/nccl_tables.hpp"

namespace collsim {

LinkEfficiency nccl_link_efficiency(GpuArch arch) {
    // NVLink: NCCL's per-link GB/s over the nominal per-link rate per
    // direction, 25 GB/s up to NVLink 4 and 50 for NVLink 5 (Blackwell).
    // Measured H100 NVLink (380 of 450 GB/s unidirectional, NVIDIA/nccl issue
    // #1264) agrees.
    const double nvlink = nccl::nvlink_speed(arch) / (arch == GpuArch::blackwell ? 50.0 : 25.0);
    // PCIe: NCCL rates a lane at 60/120/240 x 100 Mb/s for Gen3/4/5 (src/graph/
    // topo.cc kvDictPciGen), 12 GB/s for Gen3 x16 against 15.75 GB/s raw.
    const double pci = 12.0 / 15.75;
    // Network: NCCL plans with the NIC's line rate (bw = Mb/s / 8000).
    const double net = 1.0;
    return {nvlink, pci, net};
}

}  // namespace collsim
