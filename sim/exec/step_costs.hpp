#pragma once
// What a step costs besides its route, shared by the executor (which charges
// it) and the closed forms (which must charge the same).
#include <algorithm>
#include <cstdint>

#include "sim/core/units.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/hw/device.hpp"

namespace collsim {

// A reduction reads both operands and writes the result: 3 bytes of memory
// traffic per byte reduced. A local copy reads and writes: 2.
constexpr int64_t kReduceMemoryTraffic = 3;
constexpr int64_t kCopyMemoryTraffic = 2;

// NCCL fuses a received chunk's reduction into its copy loop, so it overlaps
// the transfer of later slots: a reduce step costs only its last pipeline
// slot's reduction (Protocol::pipeline_slot). Local reductions and copies
// (MSCCL's re and cpy) are not overlapped and cost their whole size.
inline Bytes exposed_reduction(Bytes payload, const Protocol& proto) {
    return proto.pipeline_slot.count() > 0 ? std::min(payload, proto.pipeline_slot) : payload;
}

// A link's bandwidth scaled by the share of it that collectives achieve
// (LinkEfficiency in executor.hpp), in whole bytes per second.
inline Bandwidth scaled_bandwidth(Bandwidth nominal, double efficiency) {
    return Bandwidth::bytes_per_s(static_cast<int64_t>(static_cast<double>(nominal.bps()) * efficiency));
}

// Bytes on the wire for `payload` bytes under a protocol (flags, headers),
// rounded up; `via_reducing_switch`: the send goes into or out of an NVSwitch
// that reduces in the switch.
inline Bytes wire_bytes(Bytes payload, const Protocol& proto, bool via_reducing_switch = false) {
    int64_t num = proto.payload_num, den = proto.payload_den;
    if (via_reducing_switch) num *= proto.switch_payload_num, den *= proto.switch_payload_den;
    return Bytes((payload.count() * den + num - 1) / num);
}

inline bool reduces_in_nvswitch(const Device& d) { return d.kind == DeviceKind::nvswitch && d.in_network_reduction; }

}  // namespace collsim
