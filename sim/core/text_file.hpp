#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace collsim {

// The whole file as text, gunzipped when it is gzip-compressed (profiler
// traces are often stored as .json.gz), without a leading UTF-8 byte order
// mark; InputError (field "file") when it cannot be read, is neither a regular
// file nor a pipe (a directory, /dev/zero), holds more than `max_bytes` (as
// unpacked; a regular file past it is refused before the read) or is a corrupt
// compressed file.
std::string read_text_file(const std::string& path, int64_t max_bytes = limits::kMaxInputBytes);

// Writes `text` to `path` whole or not at all (through PATH.tmp, renamed),
// so that a run stopped while writing keeps the old file; InputError naming
// `option` (the command-line option that gave the path) when it cannot.
void write_text_file_whole(const std::string& path, const std::string& text, const std::string& option);

// The first `bytes` bytes of the file, gunzipped as read_text_file does
// (readers tell formats apart by them); empty when it cannot be read.
std::string read_file_head(const std::string& path, std::size_t bytes);

// The line and column (from 1) of byte `byte` of `text`, in file `name`.
SourceLocation text_position(const std::string& text, std::size_t byte, const std::string& name);

// text_position of each of `bytes`, which ascend, in one pass over the text
// (an importer places every event of a large file).
std::vector<SourceLocation> text_positions(const std::string& text, const std::vector<std::size_t>& bytes,
                                           const std::string& name);

}  // namespace collsim
