#pragma once
// PyTorch profiler (Kineto) traces in Chrome trace-event JSON: one file per
// rank, the rank and world size in "distributedInfo". GPU activity (events of
// category kernel, gpu_memcpy, gpu_memset) keeps its measured duration, on a
// stream per CUDA stream; times are read exactly (kineto_time.hpp). NCCL
// kernels (ncclKernel_..., ncclDevKernel_...) become collectives, sized from
// the CPU ops that launched them (kineto_launches.hpp, kineto_comm.hpp). A call
// whose size the trace does not hold keeps its measured duration and is listed
// in Trace::unsized with its place and the reason. Send/receive kernels carry
// no peer, so they are kept as measured collectives of their process group.
// A trace without GPU activity is an error: there would be nothing to replay.
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
// `text` is the file's text that `doc` was parsed from (for exact times and places).
ImportedProgram import_kineto_rank(const nlohmann::json& doc, const std::string& text, const std::string& file);

}  // namespace collsim
