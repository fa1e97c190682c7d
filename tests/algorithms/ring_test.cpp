#include <catch2/catch.hpp>

#include <cmath>

#include "algorithms/algorithm.hpp"
#include "sim/exec/simulate.hpp"
#include "sim/exec/symbolic.hpp"
#include "sim/hw/topology_loader.hpp"

using namespace collsim;

namespace {
const AlgorithmInfo& ring() {
    const AlgorithmInfo* a = find_algorithm("ring");
    REQUIRE(a != nullptr);
    return *a;
}

Topology shipped(const std::string& name) {
    return load_topology(std::string(COLLSIM_SOURCE_ROOT) + "/topologies/" + name);
}

Time ring_time(const Topology& topo, int n, Bytes size, int channels) {
    Routes routes(topo);
    const CommLayout comm = first_gpus(topo, n);
    Schedule s = ring().build(CollectiveCall{CollOp::allreduce, size, n, channels}, comm);
    return simulate_schedule(topo, routes, comm.gpus, s, *nccl_protocol(NcclFamily::ring, ProtoKind::simple)).time;
}
}  // namespace

TEST_CASE("ring AllReduce has 2(n-1) sends and receives per rank and channel") {
    const Topology topo = shipped("dgx-h100.yaml");
    for (int n = 2; n <= 8; ++n)
        for (int channels = 1; channels <= 3; ++channels) {
            Schedule s = ring().build(CollectiveCall{CollOp::allreduce, Bytes(1 << 20), n, channels},
                                      first_gpus(topo, n));
            CHECK(s.steps.size() == static_cast<std::size_t>(channels * 2 * (n - 1) * n * 2));
        }
}

TEST_CASE("the symbolic check catches a schedule that drops a reduction") {
    const Topology topo = shipped("dgx-h100.yaml");
    Schedule s = ring().build(CollectiveCall{CollOp::allreduce, Bytes(1 << 20), 4, 1}, first_gpus(topo, 4));
    // Turn the first reduction into a copy: rank 0 loses its own contribution to chunk 3.
    for (auto& st : s.steps)
        if (st.kind == StepKind::reduce) {
            st.kind = StepKind::copy;
            break;
        }
    CHECK_THAT(check_symbolic(s, CollOp::allreduce, run_symbolic(s, CollOp::allreduce, 1)),
               Catch::Contains("rank 0 chunk 3 holds {r1.c3 r2.c3 r3.c3}, expected {r0.c3 r1.c3 r2.c3 r3.c3}"));
}

TEST_CASE("ring AllReduce on the NVSwitch server matches the closed-form ring formula") {
    // Closed form for a ring with no contention (DESIGN: flow and analytical must
    // agree): T = base + 2(n-1) L_step + 2(n-1)/n S/B + (n-1) 3 C min(S/(nC), slot)/M,
    // where L_step = NCCL Ring/Simple NVLink step latency 3.4 us + the path's
    // physical latency (link 100 ns + NVSwitch 100 ns + link 100 ns, from
    // dgx-h100.yaml), base = 8.4 us, B = 450 GB/s per GPU, M = 3.35 TB/s HBM; each
    // reduce-scatter step exposes the reduction (3 bytes of memory traffic per
    // byte) of one 512 KiB pipeline slot per channel, the C channels sharing M.
    const Topology topo = shipped("dgx-h100.yaml");
    const double base = 8.4e-6, step = 3.4e-6 + 300e-9, B = 450e9, M = 3.35e12, slot = 512 * 1024;
    for (int n : {2, 4, 8}) {
        for (int C : {1, 4}) {
            for (int64_t size = 8; size <= (int64_t{1} << 30); size *= 4) {
                const double S = static_cast<double>(size);
                const double expected = base + 2 * (n - 1) * step + 2.0 * (n - 1) / n * S / B +
                                        (n - 1) * 3 * C * std::min(S / (n * C), slot) / M;
                const double got = ring_time(topo, n, Bytes(size), C).us() * 1e-6;
                INFO("n=" << n << " channels=" << C << " size=" << size);
                CHECK(std::abs(got - expected) / expected < 0.01);
            }
        }
    }
}

TEST_CASE("1 GiB ring AllReduce bus bandwidth stays under the GPU's NVLink bandwidth") {
    const Topology topo = shipped("dgx-h100.yaml");
    const Time t = ring_time(topo, 8, Bytes(int64_t{1} << 30), 1);
    const double algbw = static_cast<double>(int64_t{1} << 30) / (t.us() * 1e-6) / 1e9;
    const double busbw = algbw * busbw_factor(CollOp::allreduce, 8);
    CHECK(busbw <= 450.0);
    CHECK(busbw > 300.0);  // and is not implausibly low either
}

TEST_CASE("PCIe x16 barely beats x8 for small messages and nearly doubles for large ones") {
    const Topology x16 = shipped("pcie-gen4-x16-8gpu.yaml"), x8 = shipped("pcie-gen4-x8-8gpu.yaml");
    for (int64_t size = 8; size <= 16 * 1024; size *= 2) {
        const double ratio = ring_time(x8, 8, Bytes(size), 1).us() / ring_time(x16, 8, Bytes(size), 1).us();
        INFO("size=" << size << " ratio=" << ratio);
        CHECK(ratio >= 1.0);
        CHECK(ratio <= 1.15);
    }
    for (int64_t size = int64_t{256} << 20; size <= int64_t{1} << 30; size *= 2) {
        const double ratio = ring_time(x8, 8, Bytes(size), 1).us() / ring_time(x16, 8, Bytes(size), 1).us();
        INFO("size=" << size << " ratio=" << ratio);
        CHECK(ratio >= 1.7);
    }
}

TEST_CASE("a ring of one rank costs only the launch latency") {
    const Topology topo = shipped("dgx-h100.yaml");
    CHECK(ring_time(topo, 1, Bytes(1024), 1) == Time::from_ps(8'400'000));
}

TEST_CASE("protocol latencies follow NCCL's tables for the algorithm family") {
    using namespace collsim::literals;
    auto ll = nccl_protocol(NcclFamily::ring, ProtoKind::ll);
    REQUIRE(ll);
    CHECK(ll->base_latency == 6600_ns);
    CHECK(ll->step_latency(LinkClass::nvlink) == 600_ns);
    CHECK(ll->step_latency(LinkClass::net) == 2700_ns);
    CHECK(ll->payload_den == 2 * ll->payload_num);
    auto tree128 = nccl_protocol(NcclFamily::tree, ProtoKind::ll128);
    REQUIRE(tree128);
    CHECK(tree128->step_latency(LinkClass::nvlink) == 1250_ns);
    CHECK(tree128->step_latency(LinkClass::pci) == 1900_ns);
    CHECK_FALSE(nccl_protocol(NcclFamily::nvls, ProtoKind::ll));
    CHECK(nccl_protocol(NcclFamily::nvls, ProtoKind::simple)->step_latency(LinkClass::nvlink) == 25_us);
}

TEST_CASE("LL pays half the bandwidth and less latency than Simple on NVLink") {
    const Topology topo = shipped("dgx-h100.yaml");
    Routes routes(topo);
    const CommLayout comm = first_gpus(topo, 8);
    auto time_with = [&](ProtoKind p, int64_t size) {
        Schedule s = ring().build(CollectiveCall{CollOp::allreduce, Bytes(size), 8, 1}, comm);
        return simulate_schedule(topo, routes, comm.gpus, s, *nccl_protocol(NcclFamily::ring, p)).time.us();
    };
    // 8 B: 6.6 + 14 x (0.6 + 0.3) us for LL against 8.4 + 14 x (3.4 + 0.3) for Simple.
    CHECK(time_with(ProtoKind::ll, 8) == Approx(6.6 + 14 * 0.9).epsilon(0.001));
    CHECK(time_with(ProtoKind::simple, 8) == Approx(8.4 + 14 * 3.7).epsilon(0.001));
    CHECK(time_with(ProtoKind::ll, int64_t{1} << 30) > 1.8 * time_with(ProtoKind::simple, int64_t{1} << 30));
}
