#pragma once
// One rank's Chakra execution trace as a graph of nodes, whichever encoding
// it came in (the ET protobuf, chakra_et.hpp; Chakra's JSON, chakra_json.hpp),
// turned into a program the way ASTRA-sim runs it:
//  - only data_deps order nodes (ctrl_deps record the call tree);
//  - CPU ops run one at a time on the "cpu" stream, GPU kernels on "compute",
//    collectives and receives on "comm";
//  - sends are eager, as ASTRA-sim's are: they run on their own "send" stream
//    and the nodes after a send wait for what the send waited for, not for
//    its delivery (a ring whose every rank first sends, then receives, would
//    otherwise wait on itself);
//  - a collective without comm_size keeps its measured duration (noted).
// Node types are et_def.proto's: 1 METADATA, 2 MEM_LOAD, 3 MEM_STORE run as
// compute for their duration (noted); any other value is refused.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/replay/import/imported.hpp"

namespace collsim {

struct ChakraNode {
    uint64_t id = 0;
    std::string name;
    std::optional<uint64_t> type;
    bool is_cpu_op = false;
    uint64_t duration_us = 0;
    std::vector<uint64_t> data_deps;
    std::size_t unnamed_deps = 0;  // data_deps that are not node Ids at all
    std::optional<uint64_t> comm_type, comm_size, comm_src, comm_dst;
    // The node's place for errors: its field path in a JSON file
    // ("workload_graph[3]"), or "node[3] (byte 120)" in an .et file.
    std::string where;
    SourceLocation at;  // where the node begins: a line, or a byte in an .et file
};

struct ChakraGraph {
    std::string file;
    std::string format;  // "Chakra JSON", "Chakra ET protobuf": named in errors
    // The encoding's names of the node list and of two node fields, for errors.
    std::string list = "nodes", id_field = "id", type_field = "type", runtime_field = "duration_micros";
    std::optional<int> world;
    std::vector<ChakraNode> nodes;
};

// `rank` comes from the file name. Errors are InputErrors in `g.file` whose
// field starts with the node's `where`.
ImportedProgram chakra_program(const ChakraGraph& g, int rank);

}  // namespace collsim
