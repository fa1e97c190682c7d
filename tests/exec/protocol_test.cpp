#include <catch2/catch.hpp>

#include "sim/exec/step_costs.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/model/predict.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;

TEST_CASE("protocols carry NCCL's payload shares: LL half, LL128 120/128, trees 92% of either") {
    auto wire = [](NcclFamily f, ProtoKind p) { return wire_bytes(Bytes(1'000'000), *nccl_protocol(f, p)).count(); };
    CHECK(wire(NcclFamily::ring, ProtoKind::simple) == 1'000'000);
    CHECK(wire(NcclFamily::ring, ProtoKind::ll) == 2'000'000);
    CHECK(wire(NcclFamily::ring, ProtoKind::ll128) == 1'066'667);
    CHECK(wire(NcclFamily::tree, ProtoKind::simple) == 1'086'957);  // 1e6 / 0.92, rounded up
    CHECK(wire(NcclFamily::tree, ProtoKind::ll128) == 1'159'421);   // 1e6 / (0.92 x 120/128)
}

TEST_CASE("a two-GPU tree AllReduce takes 1/0.92 of the ring's time where the links bound both") {
    const Topology t = load_topology(collsim::test::source_path("validation/data/topologies/l40s-2gpu-pcie.yaml"));
    Routes routes(t);
    PredictRequest req;
    req.ranks = t.gpus();
    req.bytes = Bytes(int64_t{1} << 30);
    req.proto = "simple";
    req.algo = "ring";
    const double ring = predict_collective(t, routes, req, Calibration{}).time.us();
    req.algo = "tree";
    const double tree = predict_collective(t, routes, req, Calibration{}).time.us();
    // Measured on this box (NCCL 2.17.9, cs244): Tree 14.8 GB/s busbw, ring 15.6.
    CHECK(tree / ring == Approx(1 / 0.92).epsilon(0.01));
}
