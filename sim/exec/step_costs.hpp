#pragma once
// What a step costs besides its route, shared by the executor (which charges
// it) and the closed forms (which must charge the same).
#include <cstdint>

#include "sim/core/units.hpp"
#include "sim/exec/protocol.hpp"

namespace collsim {

// A reduction reads both operands and writes the result: 3 bytes of memory
// traffic per byte reduced. A local copy reads and writes: 2.
constexpr int64_t kReduceMemoryTraffic = 3;
constexpr int64_t kCopyMemoryTraffic = 2;

// Bytes on the wire for `payload` bytes under a protocol (flags, headers), rounded up.
inline Bytes wire_bytes(Bytes payload, const Protocol& proto) {
    return Bytes((payload.count() * proto.payload_den + proto.payload_num - 1) / proto.payload_num);
}

}  // namespace collsim
