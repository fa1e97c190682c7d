#pragma once
// Chakra execution traces in their JSON form: the "workload_graph" documents
// that Chakra's JSON feeder reads (mlcommons/chakra src/feeder/json_node.cpp),
// one file per rank, e.g. chakra.0.json ... chakra.7.json. Nodes carry Id,
// Name, NodeType (et_def.proto: 4 COMP, 5 SEND, 6 RECV, 7 COLL), is_cpu_op,
// runtime (microseconds), data_deps, and for communication comm_type
// (0 ALL_REDUCE, 1 REDUCE, 2 ALL_GATHER, 5 BROADCAST, 6 ALL_TO_ALL,
// 7 REDUCE_SCATTER), comm_size, comm_src, comm_dst. chakra_graph.hpp makes
// the program, as for the ET protobuf.
#include <string>

#include <nlohmann/json.hpp>

#include "sim/replay/import/imported.hpp"

namespace collsim {

bool is_chakra_json(const nlohmann::json& doc);
// `rank` comes from the file name; the world size from "ngpus" when present.
ImportedProgram import_chakra_rank(const nlohmann::json& doc, const std::string& text, const std::string& file,
                                   int rank);

}  // namespace collsim
