#pragma once
#include <string_view>
#include <vector>

#include "sim/core/units.hpp"

namespace collsim {

// "MIN:MAX" steps by x2 like nccl-tests -b MIN -e MAX -f 2; "MIN:MAX:F" by xF;
// "8,1K,1M" is an explicit list. Throws InputError naming `option`.
std::vector<Bytes> parse_size_list(std::string_view text, std::string_view option);
// The same list read as boundaries between size ranges: each larger than the one before.
std::vector<Bytes> parse_size_boundaries(std::string_view text, std::string_view option);

}  // namespace collsim
