#pragma once
// NCCL's point-to-point kernel (AllToAll and SendRecv are grouped sends and
// receives): how many channels, each one thread block, carry a GPU's sends to
// its peers, and so the most those sends can move together. Each channel
// moves data at about the per-channel speed NCCL plans its NVLink graphs
// with, whatever the links could take; with few channels per peer (mid-size
// messages spread over many peers) that, not the links, bounds AllToAll.
#include "algorithms/tuner/comm_shape.hpp"
#include "algorithms/tuner/nccl_cost.hpp"
#include "sim/core/units.hpp"
#include "sim/exec/collective.hpp"

namespace collsim {

struct P2pChannels {
    int total = 1;     // NCCL's p2pnChannels
    int per_peer = 1;  // its p2pnChannelsPerPeer
};

// The p2p channels of a communicator of this shape (src/graph/connect.cc,
// ncclTopoComputeP2pChannels): every execution channel, twice the graph
// search's ("execution channels are typically 2x the search channels",
// NVIDIA/nccl issue #1041), rounded up to a power of two; per peer, two per NVLink's worth
// of path (one path per NVSwitch port) or two across PCIe or the network,
// likewise rounded, and never more than the total.
P2pChannels nccl_p2p_channels(const CommShape& s);

// Channels NCCL splits one `bytes` send to a peer over (src/enqueue.cc,
// addP2pToPlan): at least a part of p2pChunkSize / 8 (/ 2 across nodes), as
// many as the channel budget per peer allows (halved while that times the
// rank count exceeds the total), doubled while a part is above 32 chunks
// (one across nodes).
int nccl_p2p_channels_for(const CommShape& s, const P2pChannels& ch, Bytes bytes);

// GB/s that one GPU's sends of `op` of `bytes` (nccl-tests' size: AllToAll's
// whole buffer, SendRecv's one message) carry at most: the channels in use
// times half of NCCL's per-NVLink planning speed (two channels per NVLink).
// 0 (no bound beyond the links) where the GPUs do not talk over NVLink, and
// across nodes, where the network binds long before the channels do.
double p2p_ceiling_GBps(const CommShape& s, CollOp op, Bytes bytes);

}  // namespace collsim
