#pragma once
#include <string>

namespace collsim {

// The whole file as text, without a leading UTF-8 byte order mark;
// InputError (field "file") when it cannot be read or is a directory.
std::string read_text_file(const std::string& path);

}  // namespace collsim
