#pragma once
#include "sim/exec/executor.hpp"
#include "sim/hw/device.hpp"

namespace collsim {

// The share of a link's nominal bandwidth that NCCL's data movement achieves,
// by link class, before any calibration. Taken from the per-link figures NCCL
// itself plans with, divided by the nominal figure of the same link.
LinkEfficiency nccl_link_efficiency(GpuArch arch);

}  // namespace collsim
