#pragma once
// Recognises NCCL kernels by name in profiler traces, in both naming schemes:
//   before NCCL 2.19:  ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, ...)
//   2.19 and later:    ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)
// (the names are those NCCL's src/device/generate.py and its predecessor
// Makefile rules give the kernels; real examples in the HTA and PARAM traces).
#include <optional>
#include <string>
#include <string_view>

#include "sim/exec/collective.hpp"

namespace collsim {

struct NcclKernel {
    CollOp op = CollOp::allreduce;  // SendRecv, Send and Recv kernels are CollOp::sendrecv
    std::string dtype;              // as nccl-tests names it, "" when the name carries none
};

std::optional<NcclKernel> parse_nccl_kernel(std::string_view name);

// The operation's name in kernel names ("AllReduce"; "SendRecv" for CollOp::sendrecv).
std::string_view nccl_kernel_label(CollOp op);

}  // namespace collsim
