#include "sim/core/text_file.hpp"

#include <fstream>
#include <sstream>

#include "sim/core/error.hpp"

namespace collsim {

std::string read_text_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(SourceLocation{path, 0, 0}, "file", "a readable file", "it cannot be opened");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace collsim
