#include <catch2/catch.hpp>

#include "algorithms/algorithm.hpp"
#include "algorithms/tuner/tuner.hpp"
#include "sim/exec/step_costs.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/model/predict.hpp"
#include "tests/support/synthetic_topology.hpp"

using namespace collsim;

namespace {
const AlgorithmInfo& nvls_tree() {
    const AlgorithmInfo* a = find_algorithm("nvls_tree");
    REQUIRE(a != nullptr);
    return *a;
}

std::string why_not(const test::ClusterShape& shape) {
    const Topology t = test::cluster(shape);
    return nvls_tree().why_not(CollOp::allreduce, first_gpus(t, static_cast<int>(t.gpus().size()))).value_or("");
}
}  // namespace

TEST_CASE("NVLSTree needs several servers, each with an NVSwitch that reduces") {
    CHECK_THAT(why_not({1, 8, true, false}), Catch::Contains("at least two servers"));
    CHECK_THAT(why_not({2, 8, false, false}), Catch::Contains("in_network_reduction: true"));
    CHECK_THAT(why_not({2, 1, true, false}), Catch::Contains("at least two ranks per server"));
    CHECK(why_not({2, 8, true, false}).empty());
    CHECK_THAT(nvls_tree().why_not(CollOp::allgather, first_gpus(test::cluster({2, 8, true, false}), 16)).value_or(""),
               Catch::Contains("allreduce only"));
}

TEST_CASE("on two DGX H100 the tuner takes NVLSTree for large AllReduce, as NCCL does") {
    const Topology t = load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/cluster-h100-2n.yaml");
    Routes routes(t);
    const CommShape s = comm_shape(t, routes, t.gpus());
    const auto big = tune(s, CollOp::allreduce, Bytes(int64_t{1} << 30), "auto", "auto");
    REQUIRE(big);
    INFO(big->why);
    CHECK(big->algo == "nvls_tree");
    CHECK(big->proto == ProtoKind::simple);
    // Small messages: NVLSTree's NVLink step alone is 25 us; LL wins.
    const auto small = tune(s, CollOp::allreduce, Bytes(1024), "auto", "auto");
    REQUIRE(small);
    CHECK(small->algo != "nvls_tree");
}

TEST_CASE("only sends into or out of a reducing NVSwitch carry NVLS's efficiency share") {
    Protocol p = *nccl_protocol(NcclFamily::nvls_tree, ProtoKind::simple);
    p.switch_payload_num = 850;
    p.switch_payload_den = 1000;
    CHECK(wire_bytes(Bytes(1000), p, true) == Bytes(1177));  // 1000 / 0.85, rounded up
    CHECK(wire_bytes(Bytes(1000), p, false) == Bytes(1000));
    const Topology t = test::cluster({2, 4, true, false});
    Device sw = t.device(*t.find("n0nvs")), nic = t.device(*t.find("n0nic0"));
    CHECK(reduces_in_nvswitch(sw));
    CHECK_FALSE(reduces_in_nvswitch(nic));
}

TEST_CASE("two-node NVLSTree takes NCCL's 15/16 over 7/8 of one node's NVLS time") {
    const Topology t = load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/cluster-h100-2n.yaml");
    Routes routes(t);
    PredictRequest req;
    req.bytes = Bytes(int64_t{8} << 30);
    req.ranks = first_gpus(t, 8).gpus;
    req.algo = "nvls";
    const double one_node = predict_collective(t, routes, req, Calibration{}).time.us();
    req.ranks = t.gpus();
    req.algo = "nvls_tree";
    const double two_nodes = predict_collective(t, routes, req, Calibration{}).time.us();
    // Each GPU moves the same bytes through its NVSwitch either way, and the
    // NICs (1/8 of the buffer each way at 50 GB/s) are not the bottleneck.
    CHECK(two_nodes / one_node == Approx((15.0 / 16) / (7.0 / 8)).epsilon(0.02));
}
