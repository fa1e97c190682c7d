// The headline check: the out-of-sample error of the model over every shipped
// dataset it covers. Thresholds are what the model achieves plus a small
// margin (validation/README.md has the numbers); tighten them as the model
// improves, and say so in the commit.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;

namespace {
// Issue 5 asks for at most 15% (bandwidth-bound rows) and 25% (latency-bound
// rows) here, and aims at 10% and 20%; issue 22 at 7% and 10%. Measured
// out-of-sample over 45 runs: 9.6% bandwidth-bound (9.3% before the launch
// per GPU of -g runs was fitted; 9.9% before trees moved 92% of what their links
// carry; 10.5% before NVLS had its own calibration factor;
// 11.1% before NVLSTree ran at NCCL's bus-bandwidth rate; 12.5% before
// AllToAll was bound by NCCL's p2p channels; 12.6% before NVLS paid its
// chunk handshakes; 13.9% before point-to-point runs had their own
// bandwidth factor; 15.6% while the R760xa RoCE run sat in the FarmShare
// L40S box's class; 23.2% before the fit's link parameters had weak
// priors), 9.6% latency-bound (13.2% before a fit carried to a run only
// what the two share, the host's launch per GPU never, and EFA paid
// aws-ofi-nccl's 75 us per network step; 13.8% before the trees' 92%; 14.0% before the trees' 92%; 14.4% before
// the NVLS handshakes; 18.9%
// before the launch floor of nccl-tests' -g; validation/README.md).
constexpr double kMaxBandwidthBoundMedianPct = 10.0;
constexpr double kMaxLatencyBoundMedianPct = 11.0;
// Issue 22's target for multi-node runs' latency-bound rows out of sample:
// 20%; 17.0% measured (68.4% before the fits' scoping and EFA's latency).
constexpr double kMaxMultiNodeLatencyMedianPct = 20.0;
// 8-GPU NVSwitch AllReduce, latency-bound, out of sample: 14.2% measured
// (30.6% while a slow host's -g floor was fitted as the ring's launch
// latency and carried to the other hosts).
constexpr double kMaxNvswitchAllReduceLatencyMedianPct = 16.0;
// Issue 5's target for AllReduce on one server's 8 NVSwitch GPUs,
// bandwidth-bound, out of sample: 3.5% over 7 runs (H100 12.1% and B200 8.2%
// before NVLS had its own calibration factor).
constexpr double kMaxNvswitchAllReduceMedianPct = 5.0;
}  // namespace

// [slow]: the one essential slow test (a calibration fit per shipped run, the
// two-node ones simulating 16 ranks per row); `~[slow]` skips it locally.
TEST_CASE("out-of-sample error over the shipped datasets stays under the thresholds", "[slow]") {
    const auto r = run_cli("validate --data validation/data --cross --format json --max-bandwidth-error " +
                           std::to_string(kMaxBandwidthBoundMedianPct) + " --max-latency-error " +
                           std::to_string(kMaxLatencyBoundMedianPct));
    const auto j = nlohmann::json::parse(r.out);
    const auto& oos = j["overall"]["out_of_sample"];
    INFO("out-of-sample: " << oos.dump());
    INFO(r.err);
    // Enough data for the figure to mean something: a test that cannot fail is a defect.
    CHECK(j["datasets"].size() >= 20);
    CHECK(oos["latency_rows"].get<int>() >= 200);
    CHECK(oos["bandwidth_rows"].get<int>() >= 100);
    CHECK(oos["median_ape_bandwidth_pct"].get<double>() <= kMaxBandwidthBoundMedianPct);
    CHECK(oos["median_ape_latency_pct"].get<double>() <= kMaxLatencyBoundMedianPct);
    const auto& eight = j["overall"]["nvswitch_8gpu_allreduce"]["out_of_sample"];
    INFO("8-GPU NVSwitch AllReduce, out of sample: " << eight.dump());
    CHECK(eight["bandwidth_rows"].get<int>() >= 100);
    CHECK(eight["median_ape_bandwidth_pct"].get<double>() <= kMaxNvswitchAllReduceMedianPct);
    CHECK(eight["median_ape_latency_pct"].get<double>() <= kMaxNvswitchAllReduceLatencyMedianPct);
    const auto& multi = j["overall"]["multi_node"]["out_of_sample"];
    INFO("multi-node, out of sample: " << multi.dump());
    CHECK(multi["latency_rows"].get<int>() >= 200);
    CHECK(multi["median_ape_latency_pct"].get<double>() <= kMaxMultiNodeLatencyMedianPct);
    CHECK(r.exit_code == 0);
}

TEST_CASE("validate exits 1 when the error is above a threshold") {
    const auto r = run_cli("validate --log tests/data/nccl-logs/new-layout-allreduce.log --topology "
                           "topologies/dgx-h100.yaml --max-latency-error 1");
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("median error of latency-bound rows"));
    CHECK_THAT(r.err, Catch::Contains("is above 1%"));
}
