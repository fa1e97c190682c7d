#pragma once
#include <string>

namespace collsim {

// The whole file as text; InputError (field "file") when it cannot be read.
std::string read_text_file(const std::string& path);

}  // namespace collsim
