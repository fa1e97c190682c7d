#pragma once
// Chakra execution traces as ET protobuf (.et files, one per rank: NAME.0.et,
// NAME.1.et, ...): a varint-length-delimited GlobalMetadata, then one Node
// message per node (chakra_et.proto). Read with Google's protobuf library
// where collsim was built with it (meson feature "protobuf"); without it the
// reader refuses the file, saying so (chakra_et_unavailable.cpp).
// Node attributes used: is_cpu_op, comm_type, comm_size, comm_src, comm_dst;
// duration_micros is the runtime. chakra_graph.hpp makes the program.
#include <string>

#include "sim/replay/import/imported.hpp"

namespace collsim {

// Whether this collsim was built with protobuf and reads .et files.
bool chakra_et_supported();

// `bytes` is the file's content (read_text_file gunzips an .et.gz).
ImportedProgram import_chakra_et_rank(const std::string& bytes, const std::string& file, int rank);

}  // namespace collsim
