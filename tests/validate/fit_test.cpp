#include <catch2/catch.hpp>

#include <cmath>

#include "sim/model/predict.hpp"
#include "sim/validate/calibration_fit.hpp"
#include "sim/validate/error_stats.hpp"
#include "sim/validate/least_squares.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/synthetic_run.hpp"

using namespace collsim;
using namespace collsim::literals;
using collsim::test::source_path;
using collsim::test::synthetic_run;

TEST_CASE("least squares finds a line's intercept and slope") {
    // y = 3 + 2t, measured at t = 0..4
    auto f = [](const std::vector<double>& x) {
        std::vector<double> r;
        for (int t = 0; t < 5; ++t) r.push_back(x[0] + x[1] * t - (3.0 + 2.0 * t));
        return r;
    };
    const auto res = least_squares(f, {{0, -10, 10, 1e-3}, {0, -10, 10, 1e-3}});
    CHECK(res.x[0] == Approx(3.0).margin(1e-3));
    CHECK(res.x[1] == Approx(2.0).margin(1e-3));
    CHECK(res.cost < 1e-6);
    CHECK(res.start_cost > res.cost);
}

TEST_CASE("least squares stays inside its bounds and leaves unseen parameters alone") {
    // The slope wants 2 but may not exceed 1; the third parameter changes nothing.
    auto f = [](const std::vector<double>& x) {
        std::vector<double> r;
        for (int t = 0; t < 5; ++t) r.push_back(x[0] + x[1] * t - (3.0 + 2.0 * t));
        return r;
    };
    const auto res = least_squares(f, {{0, -10, 10, 1e-3}, {0.5, 0, 1, 1e-3}, {7, 0, 10, 1e-3}});
    CHECK(res.x[1] == 1.0);
    // With the slope at 1, the best intercept is 3 + mean(t) = 5.
    CHECK(res.x[0] == Approx(5.0).margin(1e-3));
    CHECK_FALSE(res.active[2]);
    CHECK(res.x[2] == 7.0);
}

TEST_CASE("least squares priors hold back what the data barely sees, not what it pins down") {
    // x[0] is seen a thousand times more weakly than x[1]; both want 3.
    auto f = [](const std::vector<double>& x) { return std::vector<double>{1e-3 * (x[0] - 3), x[1] - 3}; };
    const auto free = least_squares(f, {{0, -10, 10, 1e-3}, {0, -10, 10, 1e-3}});
    CHECK(free.x[0] == Approx(3.0).margin(1e-2));
    const auto held = least_squares(f, {{0, -10, 10, 1e-3, 1.0}, {0, -10, 10, 1e-3, 1.0}});
    // The prior's residual x/1 outweighs 1e-3 (x - 3): x[0] stays near 0; x[1] meets it halfway.
    CHECK(std::abs(held.x[0]) < 1e-3);
    CHECK(held.x[1] == Approx(1.5).margin(1e-2));
    CHECK(held.active[0]);
}

TEST_CASE("error statistics: quantiles, geometric mean and the two size ranges") {
    CHECK(*quantile({4, 1, 3, 2}, 0.5) == Approx(2.5));
    CHECK(*quantile({4, 1, 3, 2}, 0.9) == Approx(3.7));  // 3 + 0.7 x (4 - 3)
    CHECK_FALSE(quantile({}, 0.5));
    CHECK(*geomean({1, 100}) == Approx(10));
    CHECK(*geomean({0, 1}) == Approx(0.1));  // 0 is floored at 0.01
    const std::vector<RowError> rows{
        {Bytes(65535), 100, 110},           // latency-bound, 10%
        {Bytes(65536), 100, 200},           // neither
        {Bytes((64 << 20) - 1), 100, 300},  // neither
        {Bytes(64 << 20), 100, 95},         // bandwidth-bound, 5%
        {Bytes(1 << 30), 100, 85},          // bandwidth-bound, 15%
    };
    const ErrorSummary s = summarize(rows);
    CHECK(s.rows == 5);
    CHECK(s.latency_rows == 1);
    CHECK(s.bandwidth_rows == 2);
    CHECK(*s.median_latency_pct == Approx(10));
    CHECK(*s.median_bandwidth_pct == Approx(10));
    CHECK(*s.p90_bandwidth_pct == Approx(14));
    CHECK(*s.median_pct == Approx(15));
}

namespace {

// A 1 GiB `op` run by `algo` over every GPU of a DGX H100: its time under `cal`.
double dgx_time_us(TopologyCache& machines, CollOp op, const std::string& algo, const Calibration& cal) {
    auto& m = machines.get(source_path("topologies/dgx-h100.yaml"));
    PredictRequest req;
    req.ranks = m.topo.gpus();
    req.bytes = Bytes(int64_t{1} << 30);
    req.op = op;
    req.algo = algo;
    return predict_collective(m.topo, m.routes, req, cal).time.us();
}

}  // namespace

TEST_CASE("calibrate recovers the parameters that produced a run") {
    Calibration truth;
    truth.bandwidth_efficiency[0] = 0.9;
    truth.hop_latency_delta[0] = 800_ns;
    truth.base_latency[{NcclFamily::ring, ProtoKind::simple}] = 15_us;
    TopologyCache machines;
    // Two rank counts: one run alone cannot tell the launch latency from the
    // per-step latency (the ring pays both a fixed number of times).
    const Dataset eight = synthetic_run("topologies/dgx-h100.yaml", machines, truth);
    const Dataset two = synthetic_run("tests/data/validate/two-gpus.yaml", machines, truth);
    const FitResult fit = fit_calibration({&eight, &two}, machines, Calibration{});
    CHECK(fit.rows == 20);  // 8 B to 1 GiB in steps of 8, on each machine
    CHECK(*fit.before.median_pct > 10);
    // The priors on the link parameters pull a little towards the start (1.0).
    CHECK(*fit.after.median_pct < 0.5);
    const Calibration& c = fit.calibration;
    CHECK(c.bandwidth_efficiency[0] == Approx(0.9).epsilon(0.025));
    CHECK(c.bandwidth_efficiency[0] > 0.9);
    CHECK(c.hop_latency_delta[0].us() == Approx(0.8).margin(0.02));
    CHECK(c.op_base_latency.at({CollOp::allreduce, NcclFamily::ring, ProtoKind::simple}).us() == Approx(15).margin(0.2));
    // No row crosses PCIe or the network: those stay as they were.
    CHECK(c.bandwidth_efficiency[1] == 1.0);
    CHECK(c.hop_latency_delta[2] == Time{});
    CHECK_FALSE(fit.parameters[1].active);
}

TEST_CASE("size corrections are the geometric mean of measured over predicted per range") {
    Calibration truth;
    truth.base_latency[{NcclFamily::ring, ProtoKind::simple}] = 30_us;
    TopologyCache machines;
    Dataset d = synthetic_run("tests/data/validate/two-gpus.yaml", machines, truth);
    // Make every row from 64 KiB up measure 20% slower than the model can explain.
    for (auto& row : d.measurement.rows)
        if (row.size >= Bytes(65536)) *row.result[0].time_us *= 1.2;
    FitOptions options;
    options.size_boundaries = {Bytes(65536)};
    const FitResult fit = fit_calibration({&d}, machines, Calibration{}, options);
    REQUIRE(fit.calibration.size_corrections.size() == 2);
    CHECK(fit.calibration.size_corrections[0].to == Bytes(65536));
    CHECK(fit.calibration.size_corrections[1].from == Bytes(65536));
    CHECK(*fit.after.median_pct < 2.0);
}

TEST_CASE("a run of bandwidth-bound rows only leaves the latencies where they started") {
    // Measured with a slower NVLink and a 40 us launch, but only from 64 MiB:
    // the rows cannot tell the launch from the link, so the fit may move the
    // bandwidth factor only, not turn the slowness into latency.
    Calibration truth;
    truth.bandwidth_efficiency[0] = 0.8;
    truth.base_latency[{NcclFamily::ring, ProtoKind::simple}] = 40_us;
    TopologyCache machines;
    Dataset d = synthetic_run("topologies/dgx-h100.yaml", machines, truth);
    std::erase_if(d.measurement.rows, [](const MeasuredRow& r) { return r.size < Bytes(64 << 20); });
    REQUIRE(d.measurement.rows.size() == 2);  // 128 MiB and 1 GiB
    const FitResult fit = fit_calibration({&d}, machines, Calibration{});
    const Calibration& c = fit.calibration;
    CHECK(c.hop_latency_delta[0] == Time{});
    const Time start = nccl_protocol(NcclFamily::ring, ProtoKind::simple)->base_latency;
    // Not identified, so not in the profile: the collective keeps NCCL's.
    CHECK(c.base_latency.empty());
    CHECK(c.op_base_latency.empty());
    CHECK(c.bandwidth_efficiency[0] < 0.9);
    CHECK_FALSE(fit.parameters[3].active);  // NVLink per-step latency
    // With the small rows back, the launch latency is seen and fitted.
    Dataset all = synthetic_run("topologies/dgx-h100.yaml", machines, truth);
    const FitResult full = fit_calibration({&all}, machines, Calibration{});
    CHECK(full.calibration.op_base_latency.at({CollOp::allreduce, NcclFamily::ring, ProtoKind::simple}) > start + 10_us);
}

TEST_CASE("calibrate fits the GPUs' latencies around the launch floor of a run's -g") {
    // One thread drove all 8 GPUs: the small rows all measure 8 launches of
    // 12 us, whatever the ring's own latency. Only the rows above the floor
    // tell the launch latency; read as the ring's, the floor would raise it
    // to ~96 us and every other size would be predicted far too slow. The
    // host's launch per GPU is fitted from the floor, from the default 4.2 us
    // (33.7 us at -g 8, NVIDIA/nccl-tests issue #123) to the 12 us measured.
    Calibration truth;
    truth.launch_per_gpu = Time::from_ps(12'000'000);
    truth.base_latency[{NcclFamily::ring, ProtoKind::simple}] = 15_us;
    TopologyCache machines;
    const Dataset eight = synthetic_run("topologies/dgx-h100.yaml", machines, truth, 8);
    REQUIRE(*eight.measurement.rows[0].result[0].time_us == Approx(96));
    const FitResult fit = fit_calibration({&eight}, machines, Calibration{});
    CHECK(*fit.before.median_latency_pct > 30);
    CHECK(*fit.after.median_pct < 0.5);
    CHECK(fit.calibration.launch_per_gpu.us() == Approx(12).margin(0.1));
    const double base = fit.calibration.op_base_latency.at({CollOp::allreduce, NcclFamily::ring, ProtoKind::simple}).us();
    CHECK(base == Approx(15).margin(2));
}

TEST_CASE("an AllToAll fit moves the point-to-point factor, not the links the collectives use") {
    Calibration truth;
    truth.p2p_bandwidth_efficiency = 0.7;
    TopologyCache machines;
    auto a2a_us = [&](const Calibration& c) { return dgx_time_us(machines, CollOp::alltoall, "auto", c); };
    CHECK(a2a_us(truth) / a2a_us(Calibration{}) == Approx(1 / 0.7).epsilon(0.03));
    CHECK(dgx_time_us(machines, CollOp::allreduce, "auto", truth) ==
          dgx_time_us(machines, CollOp::allreduce, "auto", Calibration{}));

    const Dataset a2a = synthetic_run("topologies/dgx-h100.yaml", machines, truth, 1, CollOp::alltoall, "alltoall");
    const FitResult fit = fit_calibration({&a2a}, machines, Calibration{});
    // Two of the run's rows are bandwidth-bound, so the prior holds the
    // factor a third of the way back towards its start (1.0).
    CHECK(fit.calibration.p2p_bandwidth_efficiency > 0.7);
    CHECK(fit.calibration.p2p_bandwidth_efficiency < 0.8);
    CHECK(*fit.after.median_bandwidth_pct < *fit.before.median_bandwidth_pct / 2);
    CHECK(fit.calibration.bandwidth_efficiency[0] == 1.0);  // NVLink: what AllReduce predicted from this fit uses
    CHECK_FALSE(fit.parameters[0].active);
    CHECK(fit.parameters[6].name == "point-to-point bandwidth factor");
    CHECK(fit.parameters[6].active);
    // A collective run leaves the point-to-point factor alone.
    const Dataset ring = synthetic_run("topologies/dgx-h100.yaml", machines, truth);
    const FitResult on_ring = fit_calibration({&ring}, machines, Calibration{});
    CHECK(on_ring.calibration.p2p_bandwidth_efficiency == 1.0);
    CHECK_FALSE(on_ring.parameters[6].active);
}

TEST_CASE("NVLS has its own factor: ring runs leave it, one node's NVLS runs fit it") {
    Calibration truth;
    truth.nvls_bandwidth_efficiency = 0.8;
    TopologyCache machines;
    auto nvls_us = [&](const Calibration& c) { return dgx_time_us(machines, CollOp::allreduce, "nvls", c); };
    CHECK(nvls_us(truth) / nvls_us(Calibration{}) == Approx(1 / 0.8).epsilon(0.03));
    // NVLS's sends through the switch do not take the NVLink factor.
    Calibration slow_links;
    slow_links.bandwidth_efficiency[0] = 0.5;
    CHECK(nvls_us(slow_links) == Approx(nvls_us(Calibration{})).epsilon(1e-3));
    CHECK(dgx_time_us(machines, CollOp::allreduce, "ring", truth) ==
          dgx_time_us(machines, CollOp::allreduce, "ring", Calibration{}));

    const Dataset nvls = synthetic_run("topologies/dgx-h100.yaml", machines, truth, 1, CollOp::allreduce, "nvls");
    const FitResult fit = fit_calibration({&nvls}, machines, Calibration{});
    CHECK(fit.parameters[7].name == "NVLS bandwidth factor");
    CHECK(fit.parameters[7].active);
    CHECK(fit.calibration.nvls_bandwidth_efficiency < 0.9);
    CHECK(fit.calibration.bandwidth_efficiency[0] == 1.0);  // no row sees it
    CHECK_FALSE(fit.parameters[0].active);
    // A ring run leaves it alone, and so does a two-node NVLSTree run, whose
    // rows cannot tell the switch's rate from the network's.
    const Dataset ring = synthetic_run("topologies/dgx-h100.yaml", machines, truth);
    CHECK(fit_calibration({&ring}, machines, Calibration{}).calibration.nvls_bandwidth_efficiency == 1.0);
    const Dataset tree =
        synthetic_run("topologies/cluster-h100-2n.yaml", machines, truth, 1, CollOp::allreduce, "nvls_tree");
    const FitResult on_tree = fit_calibration({&tree}, machines, Calibration{});
    CHECK(on_tree.calibration.nvls_bandwidth_efficiency == 1.0);
    CHECK_FALSE(on_tree.parameters[7].active);
}
