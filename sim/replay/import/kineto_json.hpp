#pragma once
// PyTorch profiler (Kineto) traces in Chrome trace-event JSON: one file per
// rank, the rank and world size in "distributedInfo". GPU activity (events of
// category kernel, gpu_memcpy, gpu_memset) keeps its measured duration, on a
// stream per CUDA stream. NCCL kernels (ncclKernel_..., ncclDevKernel_...)
// become collectives: the size from the kernel's "In msg nelems" / "Out msg
// nelems" and "dtype" args (recorded by PyTorch 2.x), the communicator from
// "Process Group Name" and "Process Group Ranks"; without sizes a collective
// keeps its measured duration (noted). Send/receive kernels carry no peer, so
// they are kept as measured collectives of their process group.
//
// Order across streams is taken from the measurement: a kernel waits for the
// last kernel of every other stream that had ended before it began (CUDA event
// waits are not in the trace). Gaps between kernels (launch and host time) are
// not replayed.
#include <string>

#include <nlohmann/json.hpp>

#include "sim/replay/import/imported.hpp"

namespace collsim {

bool is_kineto_json(const nlohmann::json& doc);
ImportedProgram import_kineto_rank(const nlohmann::json& doc, const std::string& file);

}  // namespace collsim
