#pragma once
// NCCL's own cost model (ncclTopoTuneModel and ncclTopoGetAlgoTime, NCCL
// v2.30.7 src/graph/tuning.cc and src/enqueue.cc, summarised in MODEL-FACTS.md
// sections 4-6): a latency and a bandwidth per (algorithm family, protocol),
// from which NCCL picks the fastest. collsim uses it to choose what NCCL would
// run; the time itself then comes from simulating that choice.
#include <string>
#include <vector>

#include "algorithms/tuner/comm_shape.hpp"
#include "sim/exec/collective.hpp"
#include "sim/exec/protocol.hpp"

namespace collsim {

struct NcclChannels {
    int count = 1;       // NCCL's channels for the ring/tree graphs
    double bw = 0;       // GB/s per channel it plans with
    // GB/s per channel of the tree graph's intra-node part: NCCL's search
    // raises it up to twice `bw` (search.cc: "increase bwIntra for trees"),
    // and its cost model plans trees on two nodes with it.
    double tree_bw = 0;
    int nvls_count = 16; // NVLS channels
};

struct NcclCost {
    NcclFamily family = NcclFamily::ring;
    ProtoKind proto = ProtoKind::simple;
    bool eligible = false;
    std::string why_not;  // when not eligible
    double latency_us = 0;
    double algbw_GBps = 0;
    double time_us = 0;
    // Eligible, but NCCL leaves it off unless NCCL_PROTO asks for it (LL128
    // where NCCL has not validated it: "may cause silent data corruption",
    // src/graph/tuning.cc); the tuner then takes it only when forced.
    bool off_by_default = false;
    // GB/s of bus bandwidth the protocol itself allows, whatever the links
    // give (llMaxBw, nChannels x the per-channel caps); 0: none.
    double ceiling_GBps = 0;
};

// The graph search's outcome, approximated from the per-channel speeds NCCL
// tries: the fastest speed that fits, as many channels as fit it (one per
// NIC across nodes), channels duplicated at half speed where NCCL does so on
// fast links (ncclTopoDupChannels).
NcclChannels nccl_channels(const CommShape& s);

// Every (family, protocol) NCCL considers for `op`, costed; the ineligible ones
// say why. Families are in NCCL's index order and protocols LL, LL128, Simple,
// so the first minimum is NCCL's choice (it keeps the first of equal times).
std::vector<NcclCost> nccl_costs(const CommShape& s, CollOp op, int64_t bytes);

// Channels NCCL actually launches for a message of `bytes` (it drops channels
// while each would get too little work: src/enqueue.cc).
int nccl_launch_channels(const NcclChannels& ch, ProtoKind proto, NcclFamily family, int ranks, int64_t bytes);

}  // namespace collsim
