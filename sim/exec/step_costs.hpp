#pragma once
// What a step costs besides its route, shared by the executor (which charges
// it) and the closed forms (which must charge the same).
#include <algorithm>
#include <cstdint>

#include "sim/core/units.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/hw/device.hpp"
#include "sim/hw/routes.hpp"

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

// What a step waits for besides its bytes. NCCL's per-step NET latencies
// (hwLatencies[NET] in src/graph/tuning.cc) are measured end to end on
// clusters, with their NICs, cables and switches: a network step's hardware
// path is inside them, so the path's own latency (its links and devices, from
// the topology) counts only where it is longer. Adding the two counted the
// hardware twice: 3-4 us on top of NCCL's 2.7 for a step through root
// complexes and NICs.
// Within a node the path's latency is added: there it is the links' own, and
// a staging root complex's host-memory bounce, which NCCL's P2P figures do
// not hold. A net plugin's software path (the NICs' software_latency,
// transport.hpp) is added on top of NCCL's figure. A step that pays no
// protocol step (pays_step false) waits for its path alone.
inline Time step_latency(const Path& p, const Protocol& proto, bool pays_step) {
    if (!pays_step) return p.latency;
    if (p.link_class != LinkClass::net) return p.latency + proto.step_latency(p.link_class);
    return std::max(p.latency, proto.step_latency(p.link_class)) + p.software_latency;
}

inline bool reduces_in_nvswitch(const Device& d) { return d.kind == DeviceKind::nvswitch && d.in_network_reduction; }

}  // namespace collsim
