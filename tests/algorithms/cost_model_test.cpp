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

TEST_CASE("transfers timed with their paths given and only a prefix estimated get the full set's times") {
    // A closed form that times slices of one set of transfers (the tree's
    // first chunk over its round) looks the paths up once and estimates only
    // what it reads; every transfer still loads the links and the senders'
    // ceilings, so the prefix's times are the full call's.
    const Topology topo = load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/cluster-h100-2n.yaml");
    Routes routes(topo);
    const CommLayout comm = first_gpus(topo, 16);
    Protocol ll = *nccl_protocol(NcclFamily::ring, ProtoKind::ll);
    ll.rank_ceiling = Bandwidth::bytes_per_s(141'000'000'000);
    CostModel model(comm, routes, ll);
    const Bytes b(1 << 20);
    const std::vector<Transfer> all{{comm.gpus[0], comm.gpus[8], b, 0}, {comm.gpus[0], comm.gpus[1], b, 0},
                                    {comm.gpus[0], comm.gpus[9], b, 1}, {comm.gpus[1], comm.gpus[8], b, 0},
                                    {comm.gpus[2], comm.gpus[3], Bytes(0), 0}};
    const std::vector<Estimate> full = model.concurrent_each(all);
    const std::vector<const Path*> paths = model.paths_of(all);
    const std::vector<Estimate> prefix = model.concurrent_each(all, paths, 2);
    REQUIRE(full.size() == all.size());
    REQUIRE(prefix.size() == 2);
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        CHECK(prefix[i].latency == full[i].latency);
        CHECK(prefix[i].bandwidth == full[i].bandwidth);
    }
    // The first transfer shares its GPU's ceiling and NIC with others: slower than alone.
    CHECK(full[0].bandwidth > model.concurrent_each({all[0]})[0].bandwidth);
}
