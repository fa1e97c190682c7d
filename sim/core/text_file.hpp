#pragma once
#include <cstddef>
#include <string>

#include "sim/core/error.hpp"

namespace collsim {

// The whole file as text, without a leading UTF-8 byte order mark;
// InputError (field "file") when it cannot be read or is a directory.
std::string read_text_file(const std::string& path);

// The line and column (from 1) of byte `byte` of `text`, in file `name`.
SourceLocation text_position(const std::string& text, std::size_t byte, const std::string& name);

}  // namespace collsim
