#pragma once
#include <string>

namespace collsim {

// The whole content of a file, gunzipped when it is gzip-compressed (profiler
// traces are often stored as .json.gz). Throws InputError when it cannot be read.
std::string read_input_file(const std::string& path);

}  // namespace collsim
