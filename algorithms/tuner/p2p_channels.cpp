// Measured, GB300 AllToAll (NCCL 2.28, one NVLink domain) follows this:
// four GPUs reach 532 GB/s busbw up to 512 MiB, where 8 channels to each of
// 3 peers (24 blocks x 20 GB/s = 481) carry it, and 656 from 2 GiB, once
// every one of the 32 channels is busy; eight GPUs 617 (4 channels x 7 peers,
// 28 blocks: 561); 64 GPUs about 680 at every size (one channel per peer,
// all 32 in use: 642). Without the bound the links predicted 720 throughout.
#include "algorithms/tuner/p2p_channels.hpp"

#include <algorithm>

#include "algorithms/tuner/nccl_tables.hpp"

namespace collsim {

namespace {
int pow2_up(int v) {
    int p = 1;
    while (p < v) p *= 2;
    return p;
}

// Every rank in one node, its GPUs joined by NVLink.
bool one_nvlink_node(const CommShape& s) { return s.nodes == 1 && s.intra_class == LinkClass::nvlink; }

// NCCL_P2P_NVL_CHUNKSIZE (512 KiB) inside an NVLink node; across nodes
// NCCL_P2P_NET_CHUNKSIZE and over PCIe NCCL_P2P_PCI_CHUNKSIZE (128 KiB).
int64_t p2p_chunk(const CommShape& s) { return one_nvlink_node(s) ? 512 * 1024 : 128 * 1024; }
}  // namespace

P2pChannels nccl_p2p_channels(const CommShape& s) {
    P2pChannels ch;
    ch.total = std::min(64, pow2_up(2 * nccl_channels(s).count));
    const int per_path = one_nvlink_node(s) ? 2 * std::max(1, static_cast<int>(s.intra_bw / nccl::nvlink_speed(s.arch))) : 2;
    ch.per_peer = std::min(pow2_up(per_path), ch.total);
    return ch;
}

int nccl_p2p_channels_for(const CommShape& s, const P2pChannels& ch, Bytes bytes) {
    int least = ch.per_peer;
    while (least > 1 && least * s.ranks > ch.total) least /= 2;
    const int64_t chunk = p2p_chunk(s);
    const int64_t min_part = s.nodes > 1 ? chunk / 2 : chunk / 8, max_part = s.nodes > 1 ? chunk : chunk * 32;
    const int64_t b = std::max<int64_t>(bytes.count(), 1);
    int n = static_cast<int>(std::min<int64_t>(least, (b + min_part - 1) / min_part));
    int64_t part = std::max(min_part, (b + n - 1) / n);
    while (part > max_part && n <= ch.per_peer / 2) {
        n *= 2;
        part = (b + n - 1) / n;
    }
    return n;
}

double p2p_ceiling_GBps(const CommShape& s, CollOp op, Bytes bytes) {
    if (!one_nvlink_node(s) || s.ranks < 2) return 0;
    const P2pChannels ch = nccl_p2p_channels(s);
    const int peers = op == CollOp::alltoall ? s.ranks - 1 : 1;
    const Bytes per_peer = op == CollOp::alltoall ? Bytes(bytes.count() / s.ranks) : bytes;
    const int blocks = std::min(ch.total, peers * nccl_p2p_channels_for(s, ch, per_peer));
    return blocks * nccl::nvlink_speed(s.arch) / 2;
}

}  // namespace collsim
