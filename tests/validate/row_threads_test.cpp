#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "sim/validate/calibration_fit.hpp"
#include "sim/validate/dataset_prediction.hpp"
#include "sim/validate/row_threads.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/synthetic_run.hpp"

using namespace collsim;
using collsim::test::source_path;
using collsim::test::synthetic_run;

namespace {
const std::string kTwo = source_path("tests/data/validate/two-gpus.yaml");
}  // namespace

TEST_CASE("row threads: a spare core takes rows on its own machine, and is given back") {
    TopologyCache machines;
    TopologyCache::Entry& mine = machines.get(kTwo);
    SpareCores cores(1);
    RowThreads threads(cores, {});
    std::vector<std::atomic<int>> runs(64);
    std::atomic<int> on_mine{0}, on_second{0};
    threads.run(runs.size(), kTwo, mine, [&](std::size_t i, TopologyCache::Entry& m) {
        ++runs[i];
        if (&m != &mine) {
            ++on_second;
            return;
        }
        ++on_mine;
        // This thread waits for the second one's first row, so it surely had some.
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (on_second == 0 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
    });
    for (const auto& r : runs) CHECK(r == 1);
    CHECK(on_second > 0);
    CHECK(on_mine + on_second == 64);
    // The core came back, and without one every row runs here.
    CHECK(cores.take());
    on_mine = on_second = 0;
    threads.run(8, kTwo, mine,
                [&](std::size_t, TopologyCache::Entry& m) { ++(&m == &mine ? on_mine : on_second); });
    CHECK(on_mine == 8);
    CHECK(on_second == 0);
}

TEST_CASE("row threads: a row's exception stops both threads and reaches the caller") {
    TopologyCache machines;
    TopologyCache::Entry& mine = machines.get(kTwo);
    SpareCores cores(1);
    RowThreads threads(cores, {});
    std::atomic<int> ran{0};
    CHECK_THROWS_WITH(threads.run(1000, kTwo, mine,
                                  [&](std::size_t i, TopologyCache::Entry&) {
                                      ++ran;
                                      if (i == 3) throw std::runtime_error("row 3");
                                  }),
                      "row 3");
    CHECK(ran < 1000);
    CHECK(cores.take());  // given back after the failure too
}

TEST_CASE("row threads: predictions and fits are the same on one thread and on two") {
    Calibration truth;
    truth.bandwidth_efficiency[0] = 0.9;
    TopologyCache machines;
    const Dataset d = synthetic_run("topologies/dgx-h100.yaml", machines, truth);
    SpareCores cores(1);
    RowThreads threads(cores, {});
    TopologyCache::Entry& m = machines.get(d.topology_path);
    const DatasetPrediction one = predict_dataset(d, m, Calibration{});
    const DatasetPrediction two = predict_dataset(d, m, Calibration{}, nullptr, false, &threads);
    REQUIRE(one.rows.size() == two.rows.size());
    for (std::size_t i = 0; i < one.rows.size(); ++i) {
        CHECK(one.rows[i].line == two.rows[i].line);
        CHECK(one.rows[i].error.predicted_us == two.rows[i].error.predicted_us);
        CHECK(one.rows[i].algo == two.rows[i].algo);
    }
    FitOptions options;
    options.rows = &threads;
    const FitResult serial = fit_calibration({&d}, machines, Calibration{});
    const FitResult split = fit_calibration({&d}, machines, Calibration{}, options);
    CHECK(serial.calibration.bandwidth_efficiency == split.calibration.bandwidth_efficiency);
    CHECK(serial.evaluations == split.evaluations);
    CHECK(*serial.after.median_pct == *split.after.median_pct);
}
