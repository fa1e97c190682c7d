#include "sim/exec/protocol.hpp"

namespace collsim {

namespace {

using namespace literals;

// NCCL v2.30.7 src/graph/tuning.cc (commit 73cf1122), MODEL-FACTS.md tables 1
// and 2, in microseconds x 10 so that 0.6 us etc. stay integral:
// baseLatencies[family][proto] and hwLatencies[NVLINK|PCI|NET][family][proto].
// A zero hardware latency for every path kind marks a combination NCCL does
// not run (LL and LL128 for CollNet, NVLS and PAT).
constexpr int kFamilies = 7;
constexpr std::array<std::array<int, 3>, kFamilies> kBase{{
    {68, 140, 84},  // Tree
    {66, 140, 84},  // Ring
    {0, 0, 0},      // CollNetDirect
    {0, 0, 0},      // CollNetChain
    {0, 0, 0},      // NVLS
    {0, 0, 0},      // NVLSTree
    {80, 80, 80},   // PAT
}};
constexpr std::array<std::array<std::array<int, 3>, kFamilies>, 3> kHw{{
    {{{6, 13, 40}, {6, 19, 34}, {0, 0, 37}, {0, 0, 28}, {0, 0, 250}, {0, 0, 250}, {0, 0, 40}}},        // NVLink
    {{{10, 19, 40}, {10, 25, 57}, {0, 0, 37}, {0, 0, 28}, {0, 0, 0}, {0, 0, 0}, {0, 0, 40}}},          // PCI
    {{{50, 85, 140}, {27, 40, 140}, {0, 0, 310}, {0, 0, 300}, {0, 0, 180}, {0, 0, 209}, {0, 0, 140}}},  // NET
}};
// NVLink Tree/LL128 is 1.25 us: the one figure not a multiple of 0.1 us.
constexpr Time kTreeLl128NvlinkHop = 1250_ns;

Time tenths_of_us(int v) { return Time::from_ps(int64_t{v} * 100'000); }

}  // namespace

std::optional<ProtoKind> proto_kind_from(std::string_view s) {
    if (s == "ll" || s == "LL") return ProtoKind::ll;
    if (s == "ll128" || s == "LL128") return ProtoKind::ll128;
    if (s == "simple" || s == "Simple") return ProtoKind::simple;
    return std::nullopt;
}

std::string_view to_string(ProtoKind p) {
    switch (p) {
        case ProtoKind::ll: return "ll";
        case ProtoKind::ll128: return "ll128";
        case ProtoKind::simple: return "simple";
    }
    return "?";
}

std::string_view proto_choices() { return "one of ll, ll128, simple"; }

std::optional<Protocol> nccl_protocol(NcclFamily family, ProtoKind proto) {
    const auto f = static_cast<std::size_t>(family), p = static_cast<std::size_t>(proto);
    Protocol out;
    out.name = to_string(proto);
    out.kind = proto;
    out.base_latency = tenths_of_us(kBase[f][p]);
    bool runs = false;
    for (std::size_t c = 0; c < 3; ++c) {
        out.hop_latency[c] = tenths_of_us(kHw[c][f][p]);
        runs = runs || kHw[c][f][p] != 0;
    }
    if (family == NcclFamily::tree && proto == ProtoKind::ll128) out.hop_latency[0] = kTreeLl128NvlinkHop;
    if (!runs) return std::nullopt;
    // LL sends 8-byte words of 4 data bytes and a 4-byte flag; LL128 sends
    // 128-byte lines of 120 data bytes and an 8-byte flag (NCCL issue #281,
    // src/include/device.h NCCL_LL128_LINESIZE / NCCL_LL128_ELEMS_PER_THREAD).
    if (proto == ProtoKind::ll) out.payload_num = 1, out.payload_den = 2;
    if (proto == ProtoKind::ll128) out.payload_num = 120, out.payload_den = 128;
    // Trees (AllReduce only, as in NCCL) move 92% of what their links carry:
    // NCCL's cost model takes 0.92 of a tree AllReduce's bus bandwidth
    // (src/graph/tuning.cc, MODEL-FACTS.md), its tuner here too. Measured:
    // 2 x L40S Tree reaches 95% of the same box's ring, which the links alone
    // made equal.
    if (family == NcclFamily::tree) out.payload_num *= 92, out.payload_den *= 100;
    // Slot payloads from NCCL's buffer sizes (src/include/device.h, src/init.cc),
    // each buffer split into NCCL_STEPS = 8 slots:
    //   Simple: DEFAULT_BUFFSIZE 4 MiB / 8 = 512 KiB;
    //   LL: 8 lines/thread x 512 threads x 16-byte lines / 8 = 8 KiB on the wire, half of it data;
    //   LL128: 120 elements/thread x 640 threads x 8 bytes / 8 = 76800 B, 120/128 of it data.
    switch (proto) {
        case ProtoKind::simple: out.pipeline_slot = Bytes(512 * 1024); break;
        case ProtoKind::ll: out.pipeline_slot = Bytes(4 * 1024); break;
        case ProtoKind::ll128: out.pipeline_slot = Bytes(76800 * 120 / 128); break;
    }
    return out;
}

}  // namespace collsim
