#include <catch2/catch.hpp>

#include "algorithms/algorithm.hpp"
#include "algorithms/nvls_chunks.hpp"
#include "sim/exec/simulate.hpp"
#include "sim/model/link_efficiency.hpp"
#include "sim/model/predict.hpp"
#include "sim/hw/topology_loader.hpp"

using namespace collsim;

namespace {
constexpr int64_t kMiB = int64_t{1} << 20;
}

TEST_CASE("NVLS chunks shrink with the message as NCCL's calcCollChunking cuts them") {
    // 24 channels x 8 heads: 64 KiB below 64 x 192 x 128 KiB = 1.5 GiB, 32 KiB
    // below 8 x 192 x 64 KiB = 96 MiB, 16 KiB below 2 x 192 x 32 KiB = 12 MiB.
    CHECK(nccl_nvls_chunk(Bytes(2048 * kMiB), 24, 8) == kNvlsMaxChunk);
    CHECK(nccl_nvls_chunk(Bytes(1536 * kMiB), 24, 8) == kNvlsMaxChunk);
    CHECK(nccl_nvls_chunk(Bytes(1536 * kMiB - 1), 24, 8) == Bytes(65536));
    CHECK(nccl_nvls_chunk(Bytes(96 * kMiB), 24, 8) == Bytes(65536));
    CHECK(nccl_nvls_chunk(Bytes(96 * kMiB - 1), 24, 8) == Bytes(32768));
    CHECK(nccl_nvls_chunk(Bytes(12 * kMiB - 1), 24, 8) == Bytes(16384));
    // Four heads halve every threshold: 64 MiB keeps 64 KiB chunks.
    CHECK(nccl_nvls_chunk(Bytes(64 * kMiB), 24, 4) == Bytes(65536));
    CHECK(nccl_nvls_chunk(Bytes(64 * kMiB), 24, 8) == Bytes(32768));
}

TEST_CASE("NVLS pays one wait for each chunk beyond those of full size, whatever the rank count") {
    // 64 MiB over 24 channels: 2,796,203 B per channel, 86 chunks of 32 KiB
    // where 128 KiB chunks would be 22: 64 extra.
    CHECK(nvls_handshakes(CollectiveCall{CollOp::allreduce, Bytes(64 * kMiB), 8, 24}) == kNvlsChunkWait * 64);
    // 64 ranks cut the same 64 MiB to 16 KiB chunks (below 2 x 24 x 64 x 32
    // KiB = 96 MiB): 171 chunks per channel, 149 extra, not 64 x as many waits.
    CHECK(nvls_handshakes(CollectiveCall{CollOp::allreduce, Bytes(64 * kMiB), 64, 24}) == kNvlsChunkWait * 149);
    CHECK(nvls_handshakes(CollectiveCall{CollOp::allreduce, Bytes(2048 * kMiB), 8, 24}) == Time{});
    // Simulated channels that stand for NCCL's count cut chunks as NCCL's do.
    CollectiveCall merged{CollOp::allreduce, Bytes(64 * kMiB), 8, 4};
    merged.launched_channels = 24;
    CHECK(nvls_handshakes(merged) == kNvlsChunkWait * 64);
}

TEST_CASE("the executor and the closed form both pay NVLS's handshakes") {
    const Topology topo = load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/hgx-b200.yaml");
    Routes routes(topo);
    const CommLayout comm = first_gpus(topo, 8);
    const AlgorithmInfo* nvls = find_algorithm("nvls");
    REQUIRE(nvls != nullptr);
    const CollectiveCall call{CollOp::allreduce, Bytes(64 * kMiB), 8, 24};
    const Protocol proto = *nccl_protocol(NcclFamily::nvls, ProtoKind::simple);
    Schedule s = nvls->build(call, comm);
    REQUIRE(s.handshakes == nvls_handshakes(call));
    const Time paid = simulate_schedule(topo, routes, comm.gpus, s, proto).time;
    s.handshakes = Time{};
    const Time free = simulate_schedule(topo, routes, comm.gpus, s, proto).time;
    CHECK(paid - free == nvls_handshakes(call));
    CostModel m(comm, routes, proto, nccl_link_efficiency(GpuArch::blackwell));
    CHECK(nvls->estimate(call, m).bandwidth > nvls_handshakes(call));
}

TEST_CASE("NVLS on 64 GPUs of an NVL72 rack moves bytes at about the 8-GPU rate") {
    // Measured on GB200 NVL72 (issue 22): 1 GiB at 414 GB/s algbw on 8 GPUs,
    // 378 on 64. A wait per peer and chunk made 64 ranks 1.8x slower than 8.
    const Topology topo = load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/gb200-nvl72.yaml");
    Routes routes(topo);
    auto algbw_gbps = [&](int ranks) {
        PredictRequest req;
        req.bytes = Bytes(1024 * kMiB);
        req.ranks = first_gpus(topo, ranks).gpus;
        req.algo = "nvls";
        req.model = ModelTier::analytical;
        return static_cast<double>(req.bytes.count()) /
               static_cast<double>(predict_collective(topo, routes, req, Calibration{}).time.ps()) * 1e3;
    };
    const double eight = algbw_gbps(8), sixty_four = algbw_gbps(64);
    INFO("8 ranks " << eight << " GB/s, 64 ranks " << sixty_four << " GB/s");
    CHECK(eight == Approx(410).epsilon(0.02));
    CHECK(sixty_four == Approx(448).epsilon(0.02));
}
