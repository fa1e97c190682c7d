#pragma once
#include <cstddef>
#include <string>

#include "sim/core/error.hpp"

namespace collsim {

// The whole file as text, gunzipped when it is gzip-compressed (profiler
// traces are often stored as .json.gz), without a leading UTF-8 byte order
// mark; InputError (field "file") when it cannot be read, is a directory or
// a corrupt compressed file.
std::string read_text_file(const std::string& path);

// The line and column (from 1) of byte `byte` of `text`, in file `name`.
SourceLocation text_position(const std::string& text, std::size_t byte, const std::string& name);

}  // namespace collsim
