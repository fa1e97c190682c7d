#pragma once
#include <string>
#include <vector>

namespace collsim::gen {

// "0-7,32-39" for the ranks 0..7 and 32..39 (sorted input).
std::string rank_ranges(const std::vector<int>& ranks);

}  // namespace collsim::gen
