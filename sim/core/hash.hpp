#pragma once
// A fixed 64-bit mixing function for seeded, reproducible choices (ECMP
// hashing, tie breaks). std::hash is implementation-defined, so results would
// change between standard libraries; this one never does.
#include <cstdint>

namespace collsim {

// The finaliser of SplitMix64 (Steele, Lea, Flood: "Fast splittable
// pseudorandom number generators", OOPSLA 2014): a bijection on 64 bits in
// which every input bit affects every output bit.
constexpr uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

// Combines values in order: hash_combine(hash_combine(seed, a), b).
constexpr uint64_t hash_combine(uint64_t h, uint64_t v) { return mix64(h ^ mix64(v + 0x9e3779b97f4a7c15ULL)); }

}  // namespace collsim
