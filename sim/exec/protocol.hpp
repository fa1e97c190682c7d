#pragma once
// NCCL protocols as the executor costs them: a launch latency per collective,
// a per-step latency that depends on the kind of path the step crosses, and
// the share of link bandwidth that carries payload. NCCL keeps these per
// algorithm family, so an algorithm names the family whose figures it uses.
#include <array>
#include <optional>
#include <string_view>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/hw/link.hpp"

namespace collsim {

// NCCL's algorithm families, in its index order (src/init.cc).
enum class NcclFamily { tree, ring, collnet_direct, collnet_chain, nvls, nvls_tree, pat };
enum class ProtoKind { ll, ll128, simple };

struct Protocol {
    std::string_view name;
    ProtoKind kind = ProtoKind::simple;
    Time base_latency;                // once per collective call
    std::array<Time, 3> hop_latency;  // per step, indexed by LinkClass (nvlink, pci, net)
    int64_t payload_num = 1, payload_den = 1;  // share of wire bytes that are payload
    // A further share for sends into or out of an NVSwitch that reduces in
    // the switch (NVLS multimem traffic, which carries less than the link rate).
    int64_t switch_payload_num = 1, switch_payload_den = 1;
    // NCCL hands data between ranks in buffer slots of this much payload, so a
    // reduction overlaps the transfer of the next slot: only the last slot's
    // reduction adds to a step's time.
    Bytes pipeline_slot;
    // The most payload per second one rank's sends of a collective carry
    // together, whatever the links could: the GPU side of the protocol
    // (NCCL's llMaxBw for LL, its per-channel caps for LL128 and trees),
    // split evenly over the rank's channels (the executor holds each
    // channel to its share). Zero: no limit beyond the links.
    Bandwidth rank_ceiling;

    // rank_ceiling in wire bytes, as flows count them (zero: no limit).
    Bandwidth wire_ceiling() const {
        return Bandwidth::bytes_per_s(rank_ceiling.bps() / payload_num * payload_den);
    }
    Time step_latency(LinkClass c) const { return hop_latency[static_cast<std::size_t>(c)]; }
};

// The NCCL release whose tuning tables the defaults follow.
inline constexpr std::string_view kNcclModelVersion = "2.30.7";

std::optional<ProtoKind> proto_kind_from(std::string_view s);
std::string_view to_string(ProtoKind p);
std::string_view proto_choices();

// The protocol as NCCL models it for an algorithm family; nullopt where NCCL
// does not run that combination (NVLS, CollNet and PAT are Simple only).
std::optional<Protocol> nccl_protocol(NcclFamily family, ProtoKind proto);

}  // namespace collsim
