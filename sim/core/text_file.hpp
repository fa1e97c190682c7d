#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "sim/core/error.hpp"

namespace collsim {

// The whole file as text, gunzipped when it is gzip-compressed (profiler
// traces are often stored as .json.gz), without a leading UTF-8 byte order
// mark; InputError (field "file") when it cannot be read, is a directory or
// a corrupt compressed file.
std::string read_text_file(const std::string& path);

// The line and column (from 1) of byte `byte` of `text`, in file `name`.
SourceLocation text_position(const std::string& text, std::size_t byte, const std::string& name);

// text_position of each of `bytes`, which ascend, in one pass over the text
// (an importer places every event of a large file).
std::vector<SourceLocation> text_positions(const std::string& text, const std::vector<std::size_t>& bytes,
                                           const std::string& name);

}  // namespace collsim
