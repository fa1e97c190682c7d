#include "sim/core/fnv1a.hpp"

#include <fmt/format.h>

namespace collsim {

uint64_t fnv1a64(std::string_view text) {
    uint64_t h = 14695981039346656037ULL;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

std::string fnv1a64_hex(std::string_view text) { return fmt::format("{:016x}", fnv1a64(text)); }

}  // namespace collsim
