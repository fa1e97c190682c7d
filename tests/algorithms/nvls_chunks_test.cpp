#include <catch2/catch.hpp>

#include "algorithms/algorithm.hpp"
#include "algorithms/nvls_chunks.hpp"
#include "sim/exec/simulate.hpp"
#include "sim/model/link_efficiency.hpp"
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

TEST_CASE("NVLS pays a wait per peer for each chunk beyond those of full size") {
    // 64 MiB over 24 channels: 2,796,203 B per channel, 86 chunks of 32 KiB
    // where 128 KiB chunks would be 22: 64 extra, each waiting on 8 ranks.
    CHECK(nvls_handshakes(CollectiveCall{CollOp::allreduce, Bytes(64 * kMiB), 8, 24}) == kNvlsPeerWait * (8 * 64));
    CHECK(nvls_handshakes(CollectiveCall{CollOp::allreduce, Bytes(2048 * kMiB), 8, 24}) == Time{});
    // Simulated channels that stand for NCCL's count cut chunks as NCCL's do.
    CollectiveCall merged{CollOp::allreduce, Bytes(64 * kMiB), 8, 4};
    merged.launched_channels = 24;
    CHECK(nvls_handshakes(merged) == kNvlsPeerWait * (8 * 64));
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
