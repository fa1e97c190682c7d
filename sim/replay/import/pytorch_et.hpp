#pragma once
// PyTorch execution traces (torch.profiler.ExecutionTraceObserver), the JSON
// that Chakra's converter starts from: {"schema": "1.0.1" or
// "1.x.y-chakra.0.0.4", "nodes": [...]}, one file per rank. Nodes form a call
// tree (parent, or ctrl_deps in the newer layout) under one node per thread.
// Inputs are [tensor_id, storage_id, offset, numel, elem_bytes, device] per
// tensor; the older layout keeps them in "inputs"/"input_types", the newer
// in "inputs": {"values", "types"} with "attrs" for tid.
//
// What the replay makes of a rank's tree, walked in id order:
//  - the outermost c10d::* or nccl:* node of a call is one collective on the
//    "comm" stream, sized from its tensors (nccl-tests' convention), launched
//    after the thread's previous op and not waited for (c10d is
//    asynchronous; the trace records no wait on the GPU);
//  - any other call with no collective below it is one CPU op on its
//    thread's stream, for its duration where a linked trace recorded one
//    ("dur", "inclusive_dur", microseconds) and otherwise none (noted);
//  - "## process_group:init ##" names the process groups (pg_name, ranks);
//    a collective is in the group its record_param_comms names, else in the
//    world.
#include <string>

#include <nlohmann/json.hpp>

#include "sim/replay/import/imported.hpp"

namespace collsim {

bool is_pytorch_et(const nlohmann::json& doc);
ImportedProgram import_pytorch_et_rank(const nlohmann::json& doc, const std::string& text, const std::string& file,
                                       int rank);

}  // namespace collsim
