#pragma once
// NCCL's per-architecture bandwidth caps and size correction factors, as
// published in NCCL v2.30.7 src/graph/tuning.cc (MODEL-FACTS.md tables 3, 6).
#include <array>
#include <cstdint>
#include <vector>

#include "sim/exec/protocol.hpp"
#include "sim/hw/device.hpp"

namespace collsim::nccl {

// NCCL's compute-capability index: 0 Volta (and Turing), 1 Ampere (and Ada),
// 2 Hopper, 3 Blackwell. Unknown GPUs are treated as Hopper.
int arch_index(GpuArch a);
// Node-count index: 0 for one node, 1 for two, 2 for more.
int nodes_index(int nodes);

double ll_max_bw(int row, int nodes_idx);            // llMaxBws (GB/s)
double per_ch_max_ring_ll128_bw(int arch, int nodes_idx);  // perChMaxRingLL128Bws
double per_ch_max_tree_ll128_bw(int arch, int nodes_idx);  // perChMaxTreeLL128Bws
double per_ch_max_tree_bw(int arch, int nodes_idx);        // perChMaxTreeBws
double per_ch_max_nvls_tree_bw(int arch, int nodes_idx);   // perChMaxNVLSTreeBws
double nvls_efficiency(int arch);                          // nvlsEfficiency

// GB/s per NVLink that NCCL's graph search plans with (src/graph/topo.h:
// SM70 and SM80 20.0, SM90 20.6, SM100 40.1; MODEL-FACTS.md).
double nvlink_speed(GpuArch a);

// treeCorrectionFactor[proto][log2(bytes / 64)], 1.0 past the table's end.
double tree_correction(ProtoKind p, int64_t bytes);

// Per-channel speeds NCCL's graph search tries, fastest first (search.cc):
// inside one node, and for graphs that cross nodes.
const std::vector<double>& search_speeds(GpuArch a);
const std::vector<double>& search_speeds_inter(GpuArch a);

}  // namespace collsim::nccl
