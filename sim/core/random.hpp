#pragma once
// Seeded, platform-independent randomness: splitmix64 (Steele, Lea, Flood,
// "Fast splittable pseudorandom number generators", OOPSLA 2014). mix64 is
// its finaliser, a good 64-bit hash for counter-based streams.
#include <cstdint>

namespace collsim {

inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// Advances `state` and returns the next value of the stream.
inline uint64_t splitmix_next(uint64_t& state) { return mix64(state += 0x9e3779b97f4a7c15ULL); }

}  // namespace collsim
