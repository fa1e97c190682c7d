#include <catch2/catch.hpp>

#include "algorithms/algorithm.hpp"
#include "sim/hw/topology_loader.hpp"

using namespace collsim;

TEST_CASE("a send that shares its GPU with other channels gets its share of the protocol's ceiling") {
    // LL on a DGX H100: a GPU's sends together carry at most llMaxBw (141 GB/s
    // of payload), far below its NVLink. Four channels' sends each get a
    // quarter of that, as the flow simulation holds each channel to its share.
    const Topology topo = load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/dgx-h100.yaml");
    Routes routes(topo);
    const CommLayout comm = first_gpus(topo, 8);
    Protocol ll = *nccl_protocol(NcclFamily::ring, ProtoKind::ll);
    ll.rank_ceiling = Bandwidth::bytes_per_s(141'000'000'000);
    CostModel model(comm, routes, ll);
    const Bytes payload(1 << 30);
    const Time alone = model.send(comm.gpus[0], comm.gpus[1], payload, 1).bandwidth;
    const Time shared = model.send(comm.gpus[0], comm.gpus[1], payload, 4).bandwidth;
    CHECK(alone.us() == Approx(payload.count() / 141e9 * 1e6).epsilon(0.001));
    CHECK(shared.us() == Approx(4 * alone.us()).epsilon(0.001));
}
