#pragma once
// FNV-1a, 64 bits (Fowler, Noll, Vo; the offset basis and prime of
// http://www.isthe.com/chongo/tech/comp/fnv/): enough to tell two versions of
// an input file apart, which is all the JSON stamps and regress baselines
// claim. Not a cryptographic hash.
#include <cstdint>
#include <string>
#include <string_view>

namespace collsim {

uint64_t fnv1a64(std::string_view text);
// As 16 lowercase hex digits.
std::string fnv1a64_hex(std::string_view text);

}  // namespace collsim
