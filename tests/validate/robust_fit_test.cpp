#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "sim/validate/calibration_fit.hpp"
#include "sim/validate/calibration_kfold.hpp"
#include "sim/validate/robust_loss.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/synthetic_run.hpp"

using namespace collsim;
using namespace collsim::literals;
using collsim::test::synthetic_run;

namespace {

const std::tuple kRobustRingKey{CollOp::allreduce, NcclFamily::ring, ProtoKind::simple};

Time robust_ring_latency(const Calibration& c, CollOp op) {
    return calibrated(*nccl_protocol(NcclFamily::ring, ProtoKind::simple), NcclFamily::ring, c, op).base_latency;
}

}  // namespace

TEST_CASE("Huber's loss is least squares within delta and linear beyond") {
    CHECK(huber_residual(0.1) == Approx(0.1));
    CHECK(huber_residual(-0.1) == Approx(-0.1));
    // Beyond delta the square of the residual grows linearly: 2 delta |r| - delta^2.
    const double r = 2.0;
    CHECK(huber_residual(r) * huber_residual(r) == Approx(2 * kHuberDelta * r - kHuberDelta * kHuberDelta));
    CHECK(huber_residual(-r) == Approx(-huber_residual(r)));
    CHECK(huber_weight(0.1) == 1.0);
    CHECK(huber_weight(2.0) == Approx(kHuberDelta / 2.0));
}

TEST_CASE("a launch latency fitted on AllReduce rows stays with AllReduce") {
    Calibration truth;
    truth.base_latency[{NcclFamily::ring, ProtoKind::simple}] = 40_us;
    TopologyCache machines;
    const Dataset eight = synthetic_run("topologies/dgx-h100.yaml", machines, truth);
    const Dataset two = synthetic_run("tests/data/validate/two-gpus.yaml", machines, truth);
    const FitResult fit = fit_calibration({&eight, &two}, machines, Calibration{});
    CHECK(robust_ring_latency(fit.calibration, CollOp::allreduce).us() == Approx(40).margin(1));
    // AllGather was never measured: it keeps NCCL's launch latency.
    const Time nccl = nccl_protocol(NcclFamily::ring, ProtoKind::simple)->base_latency;
    CHECK(robust_ring_latency(fit.calibration, CollOp::allgather) == nccl);
    CHECK(fit.calibration.base_latency.empty());
    // The last two parameters: the one launch latency, then the host's launch per GPU.
    REQUIRE(fit.parameters.size() >= 2);
    CHECK(fit.parameters[fit.parameters.size() - 2].name == "allreduce ring/simple base latency (us)");
    CHECK(fit.parameters.back().name == "launch per GPU of -g (us)");
}

TEST_CASE("one row the model cannot explain pulls the fit with a bounded force, and is listed") {
    Calibration truth;
    truth.base_latency[{NcclFamily::ring, ProtoKind::simple}] = 15_us;
    TopologyCache machines;
    const Dataset eight = synthetic_run("topologies/dgx-h100.yaml", machines, truth);
    Dataset two = synthetic_run("tests/data/validate/two-gpus.yaml", machines, truth);
    *two.measurement.rows[0].result[0].time_us *= 10;  // 8 B: a stall the model has no term for
    const FitResult fit = fit_calibration({&eight, &two}, machines, Calibration{});
    // Least squares on log time moves the launch latency to 25.6 us (10 us
    // off, measured with the loss switched off); Huber's loss to 16.0.
    CHECK(fit.calibration.op_base_latency.at(kRobustRingKey).us() == Approx(15).margin(1.5));
    REQUIRE(fit.downweighted.size() == 1);
    CHECK(fit.downweighted[0].size == Bytes(8));
    CHECK(fit.downweighted[0].line == 1);
    CHECK(fit.downweighted[0].weight < 0.2);
    CHECK(fit.downweighted[0].why == "far from what the model predicts");
}

TEST_CASE("a row whose out-of-place and in-place times disagree weighs less, and is listed") {
    Calibration truth;
    truth.base_latency[{NcclFamily::ring, ProtoKind::simple}] = 15_us;
    TopologyCache machines;
    Dataset two = synthetic_run("tests/data/validate/two-gpus.yaml", machines, truth);
    for (auto& row : two.measurement.rows) row.result[1].time_us = row.result[0].time_us;
    MeasuredRow& noisy = two.measurement.rows[2];  // 512 B
    noisy.result[1].time_us = *noisy.result[0].time_us * 1.5;
    const FitResult fit = fit_calibration({&two}, machines, Calibration{});
    REQUIRE(fit.downweighted.size() == 1);
    CHECK(fit.downweighted[0].size == Bytes(512));
    // A 50% spread against the 10% a quiet run shows: a fifth of the weight.
    CHECK(fit.downweighted[0].weight == Approx(0.2).margin(0.01));
    CHECK(fit.downweighted[0].why == "its out-of-place and in-place times disagree");
}

TEST_CASE("a parameter that ends at its bound is reported") {
    Calibration truth;
    truth.base_latency[{NcclFamily::ring, ProtoKind::simple}] = 2_ms;  // past the fit's 1 ms bound
    TopologyCache machines;
    const Dataset two = synthetic_run("tests/data/validate/two-gpus.yaml", machines, truth);
    const FitResult fit = fit_calibration({&two}, machines, Calibration{});
    REQUIRE(fit.parameters.size() >= 2);
    const std::size_t at = fit.parameters.size() - 2;  // before the launch per GPU, unfitted at -g 1
    const FittedParameter& latency = fit.parameters[at];
    REQUIRE(latency.name == "allreduce ring/simple base latency (us)");
    CHECK(latency.at_bound == "upper");
    CHECK(latency.value == Approx(1000));
    for (std::size_t i = 0; i < fit.parameters.size(); ++i)
        if (i != at) CHECK(fit.parameters[i].at_bound != "upper");
}

TEST_CASE("a fit that worsens its own rows is named, one that improves them is not") {
    ErrorSummary before, after;
    before.median_latency_pct = 14.6;
    after.median_latency_pct = 93.7;
    before.median_bandwidth_pct = 8;
    after.median_bandwidth_pct = 4;
    CHECK(fit_made_worse(before, after) == "latency-bound median 14.6% -> 93.7%");
    after.median_latency_pct = 14.9;  // within half a point
    CHECK(fit_made_worse(before, after).empty());
    after.geomean_pct = 20;
    before.geomean_pct = 10;
    CHECK(fit_made_worse(before, after) == "geometric mean 10.0% -> 20.0%");
}

TEST_CASE("k-fold: each log is predicted by a fit on the others") {
    Calibration truth;
    truth.base_latency[{NcclFamily::ring, ProtoKind::simple}] = 30_us;
    TopologyCache machines;
    const Dataset eight = synthetic_run("topologies/dgx-h100.yaml", machines, truth);
    const Dataset two = synthetic_run("tests/data/validate/two-gpus.yaml", machines, truth);
    CHECK_FALSE(out_of_sample({&eight}, machines, Calibration{}, {}));
    const auto held = out_of_sample({&eight, &two}, machines, Calibration{}, {});
    REQUIRE(held);
    CHECK(held->folds == 2);
    CHECK(held->after.rows == 20);
    // The launch latency carries from one machine to the other, so each
    // fold's fit predicts the held-out run better than NCCL's defaults do.
    CHECK(*held->after.median_latency_pct < *held->before.median_latency_pct / 2);
}

namespace {

const std::string kRobustTwoGpus = " --topology tests/data/validate/two-gpus.yaml";

}  // namespace

TEST_CASE("calibrate refuses a fit that worsens its own rows, unless --force") {
    // Two stalled rows of a run the model otherwise predicts exactly: fitted,
    // the launch latency rises towards them and the exact rows go wrong.
    const auto dir = std::filesystem::temp_directory_path() / "collsim-robust-fit-test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string profile = (dir / "cal.yaml").string();
    const std::string cmd = "calibrate --log tests/data/nccl-logs/stalled-small-rows.csv" + kRobustTwoGpus + " -o " + profile;
    auto refused = collsim::test::run_cli(cmd);
    CHECK(refused.exit_code == 1);
    CHECK_THAT(refused.err, Catch::Contains("the fit is worse than its start on its own rows (latency-bound median "
                                            "0.0% -> "));
    CHECK_THAT(refused.err, Catch::Contains("nothing written (--force writes it anyway)"));
    CHECK_FALSE(std::filesystem::exists(profile));
    auto forced = collsim::test::run_cli(cmd + " --force --format json");
    CHECK(forced.exit_code == 0);
    CHECK(std::filesystem::exists(profile));
    const auto j = nlohmann::json::parse(forced.out);
    REQUIRE(j["downweighted_rows"].size() == 2);
    CHECK(j["downweighted_rows"][0]["bytes"] == 8);
    CHECK(j["out_of_sample"].is_null());  // one log: no fold to hold out
    std::filesystem::remove_all(dir);
}

TEST_CASE("calibrate warns of a parameter that ends at its bound") {
    const auto dir = std::filesystem::temp_directory_path() / "collsim-robust-bound-test";
    std::filesystem::create_directories(dir);
    auto r = collsim::test::run_cli("calibrate --log tests/data/nccl-logs/slow-launch.csv" + kRobustTwoGpus + " -o " +
                                    (dir / "cal.yaml").string());
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.err, Catch::Contains("warning: allreduce ring/ll base latency (us) ended at its upper bound (1000)"));
    CHECK_THAT(r.out, Catch::Contains("allreduce ring/ll base latency (us)             6.6       1000          0       "
                                      "1000  (at its upper bound)"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("calibrate over several logs prints a k-fold out-of-sample figure") {
    const auto dir = std::filesystem::temp_directory_path() / "collsim-robust-kfold-test";
    std::filesystem::create_directories(dir);
    auto r = collsim::test::run_cli("calibrate --log tests/data/nccl-logs/stalled-small-rows.csv --log "
                                    "tests/data/nccl-logs/slow-launch.csv" + kRobustTwoGpus + " --force -o " +
                                    (dir / "cal.yaml").string() + " --format json");
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["out_of_sample"]["folds"] == 2);
    CHECK(j["out_of_sample"]["rows"] == 20);
    CHECK(j["out_of_sample"]["after"]["median_ape_pct"].is_number());
    std::filesystem::remove_all(dir);
}
