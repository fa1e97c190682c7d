#pragma once
// The draw of an intermittent straggler: whether it strikes and how hard,
// from a counter-based stream keyed by the seed, the fault and the
// coordinates of the occasion (rank, step, op; or step, or collective), so a
// draw never depends on the order in which the simulation meets occasions.
#include <cstdint>
#include <initializer_list>

#include "sim/core/random.hpp"
#include "sim/faults/fault_plan.hpp"

namespace collsim {

// The slowdown factor (1: the straggler did not strike). `key` tells the
// plan's faults apart.
inline double straggler_draw(const Fault& f, uint64_t seed, uint64_t key, std::initializer_list<uint64_t> at) {
    auto unit = [](uint64_t h) { return static_cast<double>(h >> 11) * 0x1.0p-53; };
    uint64_t x = mix64(seed ^ mix64(key));
    for (uint64_t c : at) x = mix64(x ^ c);
    if (unit(x) >= f.probability) return 1.0;
    return f.min_factor + (f.max_factor - f.min_factor) * unit(mix64(x + 1));
}

}  // namespace collsim
