#include <catch2/catch.hpp>

#include "algorithms/tuner/p2p_channels.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/model/predict.hpp"

using namespace collsim;

namespace {
constexpr int64_t kOneMiB = int64_t{1} << 20;

struct Machine {
    Topology topo;
    Routes routes;
    explicit Machine(const std::string& path)
        : topo(load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/" + path)), routes(topo) {}
    CommShape shape(int n) { return comm_shape(topo, routes, first_gpus(topo, n).gpus); }
};

Machine& gb300_tray() {
    static Machine m("validation/data/topologies/gb300-nvl72-2tray.yaml");
    return m;
}
}  // namespace

TEST_CASE("NCCL's p2p channels on an NVLink 5 switch: 32 in all, up to all of them per peer") {
    const CommShape s = gb300_tray().shape(4);
    const P2pChannels ch = nccl_p2p_channels(s);
    CHECK(ch.total == 32);
    CHECK(ch.per_peer == 32);
    // Four ranks start at 8 channels a peer (8 x 4 = 32), parts of at least
    // 64 KiB and at most 16 MiB (512 KiB chunks x 32).
    CHECK(nccl_p2p_channels_for(s, ch, Bytes(16 * kOneMiB)) == 8);
    CHECK(nccl_p2p_channels_for(s, ch, Bytes(128 * kOneMiB)) == 8);
    CHECK(nccl_p2p_channels_for(s, ch, Bytes(128 * kOneMiB + 1)) == 16);
    CHECK(nccl_p2p_channels_for(s, ch, Bytes(512 * kOneMiB)) == 32);
    CHECK(nccl_p2p_channels_for(s, ch, Bytes(100 * 1024)) == 2);
    // Eight ranks start at 4, 64 at 1.
    CHECK(nccl_p2p_channels_for(gb300_tray().shape(8), ch, Bytes(16 * kOneMiB)) == 4);
}

TEST_CASE("AllToAll's sends are bound by the p2p channels in use, 20 GB/s each on Blackwell") {
    const CommShape four = gb300_tray().shape(4), eight = gb300_tray().shape(8);
    // 64 MiB over 4 ranks: 16 MiB a peer, 8 channels to each of 3 peers.
    CHECK(p2p_ceiling_GBps(four, CollOp::alltoall, Bytes(64 * kOneMiB)) == Approx(24 * 40.1 / 2));
    CHECK(p2p_ceiling_GBps(eight, CollOp::alltoall, Bytes(64 * kOneMiB)) == Approx(28 * 40.1 / 2));
    // Large enough, every channel is busy.
    CHECK(p2p_ceiling_GBps(four, CollOp::alltoall, Bytes(4096 * kOneMiB)) == Approx(32 * 40.1 / 2));
    // SendRecv sends to one peer.
    CHECK(p2p_ceiling_GBps(eight, CollOp::sendrecv, Bytes(64 * kOneMiB)) == Approx(4 * 40.1 / 2));
    // No bound over PCIe or across nodes.
    Machine pcie("validation/data/topologies/rtx2080ti-2gpu-shm.yaml");
    CHECK(p2p_ceiling_GBps(pcie.shape(2), CollOp::alltoall, Bytes(64 * kOneMiB)) == 0);
    Machine two("topologies/cluster-h100-2n.yaml");
    CHECK(p2p_ceiling_GBps(two.shape(16), CollOp::alltoall, Bytes(64 * kOneMiB)) == 0);
}

TEST_CASE("a GB300 tray's AllToAll predicts NCCL's channel-bound rate, not the links'") {
    Machine& m = gb300_tray();
    PredictRequest req;
    req.op = CollOp::alltoall;
    req.ranks = first_gpus(m.topo, 4).gpus;
    auto busbw = [&](int64_t bytes) {
        req.bytes = Bytes(bytes);
        const double us = predict_collective(m.topo, m.routes, req, Calibration{}).time.us();
        return static_cast<double>(bytes) * 3 / 4 / us / 1e3;
    };
    // Measured (OCI, NCCL 2.28): 413-415 GB/s at 64 MiB, 622-664 from 2 GiB;
    // the links alone allow 720.
    CHECK(busbw(64 * kOneMiB) == Approx(430).epsilon(0.05));
    CHECK(busbw(4096 * kOneMiB) == Approx(640).epsilon(0.03));
    // The point-to-point factor scales the channels' bound as it does the links'.
    Calibration slow;
    slow.p2p_bandwidth_efficiency = 0.5;
    req.bytes = Bytes(64 * kOneMiB);
    const double fast_us = predict_collective(m.topo, m.routes, req, Calibration{}).time.us();
    CHECK(predict_collective(m.topo, m.routes, req, slow).time.us() > 1.8 * fast_us);
}
