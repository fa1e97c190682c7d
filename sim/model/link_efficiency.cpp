#include "sim/model/link_efficiency.hpp"

namespace collsim {

LinkEfficiency nccl_link_efficiency(GpuArch arch) {
    // NVLink, NCCL v2.30.7 src/graph/topo.h per-link GB/s over the nominal
    // per-link rate per direction (MODEL-FACTS.md): SM70 and SM80 20.0 / 25,
    // SM90 20.6 / 25 (NVLink 4), SM100 40.1 / 50 (NVLink 5). Measured H100
    // NVLink (380 of 450 GB/s unidirectional, NVIDIA/nccl issue #1264) agrees.
    double nvlink = 0.8;
    if (arch == GpuArch::hopper) nvlink = 20.6 / 25.0;
    if (arch == GpuArch::blackwell) nvlink = 40.1 / 50.0;
    // PCIe: NCCL rates a lane at 60/120/240 x 100 Mb/s for Gen3/4/5 (src/graph/
    // topo.cc kvDictPciGen), 12 GB/s for Gen3 x16 against 15.75 GB/s raw.
    const double pci = 12.0 / 15.75;
    // Network: NCCL plans with the NIC's line rate (bw = Mb/s / 8000).
    const double net = 1.0;
    return {nvlink, pci, net};
}

}  // namespace collsim
