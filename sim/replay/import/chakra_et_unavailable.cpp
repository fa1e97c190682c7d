// The ET reader of a collsim built without protobuf: a Chakra ET file is
// recognised and refused with what to do, never misread as another format.
#include "sim/replay/import/chakra_et.hpp"

namespace collsim {

bool chakra_et_supported() { return false; }

ImportedProgram import_chakra_et_rank(const std::string&, const std::string& file, int) {
    throw InputError(SourceLocation{file, 1, 1}, "file", "a trace this collsim can read",
                     "this is a Chakra ET protobuf; this collsim was built without protobuf (install "
                     "libprotobuf-dev and protobuf-compiler, then reconfigure with -Dprotobuf=enabled)");
}

}  // namespace collsim
