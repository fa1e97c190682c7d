#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/validate/dataset.hpp"
#include "sim/validate/dataset_prediction.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/input_error.hpp"

using namespace collsim;
using collsim::test::source_path;

namespace {

std::string manifest(const std::string& name) { return source_path("tests/data/validate/manifests/" + name); }

std::string load_error(const std::string& name) {
    TopologyCache machines;
    return test::input_error_of([&] { load_datasets(manifest(name), machines); });
}

}  // namespace

TEST_CASE("a manifest lists runs with their topology, class and forced protocol") {
    TopologyCache machines;
    const auto data = load_datasets(manifest("good.yaml"), machines);
    REQUIRE(data.size() == 4);
    CHECK(data[0].name == "../../nccl-logs/new-layout-allreduce.log");
    CHECK(data[0].op == CollOp::allreduce);
    CHECK(data[0].ranks == 8);  // from the log's device list, equal to the topology's GPUs
    CHECK(data[0].machine_class == "h100");
    CHECK(data[0].algo == "auto");
    CHECK(data[1].proto == "simple");
    CHECK(data[2].op == CollOp::broadcast);
    CHECK(data[2].ranks == 2);
    CHECK_THAT(data[2].topology_path, Catch::EndsWith("tests/data/validate/manifests/../two-gpus.yaml"));
    CHECK(data[0].disabled.empty());
    CHECK(data[3].disabled == std::vector<std::string>{"nvls"});
    CHECK(data[0].gpus_per_thread == 8);  // the log's 'nGpus 8'
    CHECK(data[2].gpus_per_thread == 2);
}

TEST_CASE("a run whose thread drove several GPUs is no faster than its launches") {
    // new-layout-allreduce.log: one thread launches each collective on 8 H100s in turn.
    TopologyCache machines;
    auto data = load_datasets(manifest("good.yaml"), machines);
    auto& machine = machines.get(data[0].topology_path);
    const DatasetPrediction p = predict_dataset(data[0], machine, Calibration{});
    REQUIRE(p.rows.size() == 7);
    CHECK(p.rows[0].device_us < 8 * 4.2);  // 8 B: the GPUs alone would be faster
    CHECK(p.rows[0].error.predicted_us == Approx(8 * 4.2));
    CHECK(p.rows[6].error.predicted_us == p.rows[6].device_us);  // 256 MiB: the GPUs bound it
    Calibration slow;
    slow.launch_per_gpu = Time::from_ps(10'000'000);
    CHECK(predict_dataset(data[0], machine, slow).rows[0].error.predicted_us == Approx(80));
    // One GPU per thread (a process per GPU): the floor is a single launch.
    data[0].gpus_per_thread = 1;
    const DatasetPrediction own = predict_dataset(data[0], machine, Calibration{});
    CHECK(own.rows[0].error.predicted_us == own.rows[0].device_us);
}

TEST_CASE("a run that turned an algorithm off is predicted without it") {
    // NCCL_NVLS_ENABLE=0: on a DGX H100 the tuner's NVLS for 64 MiB and up is off the table.
    TopologyCache machines;
    const auto data = load_datasets(manifest("good.yaml"), machines);
    const DatasetPrediction with = predict_dataset(data[0], machines.get(data[0].topology_path), Calibration{});
    const DatasetPrediction without = predict_dataset(data[3], machines.get(data[3].topology_path), Calibration{});
    CHECK_THAT(with.algos(), Catch::Contains("nvls"));
    CHECK_THAT(without.algos(), !Catch::Contains("nvls"));
}

TEST_CASE("predicting a dataset skips zero-byte rows and keeps each row's line") {
    TopologyCache machines;
    const auto data = load_datasets(manifest("good.yaml"), machines);
    const DatasetPrediction p = predict_dataset(data[0], machines.get(data[0].topology_path), Calibration{});
    REQUIRE(p.rows.size() == 7);  // 8 rows, the first of 0 bytes
    CHECK(p.rows[0].error.size == Bytes(8));
    CHECK(p.rows[0].line == 20);
    CHECK(p.rows[0].error.measured_us == Approx((24.13 + 24.23) / 2));
    // The second run forces NCCL_PROTO=simple; the tuner chooses for the first.
    const DatasetPrediction forced = predict_dataset(data[1], machines.get(data[1].topology_path), Calibration{});
    CHECK(forced.protos() == "simple");
}

TEST_CASE("bad manifests and runs that do not fit their machine are rejected") {
    struct Case {
        std::string file, expect;
    };
    for (const Case& c : {
             Case{"not-a-map.yaml", "not-a-map.yaml:1:1: manifest: expected a mapping of fields, found a list"},
             Case{"unknown-key.yaml", "unknown-key.yaml:2:37: manifest.datasets[0].colour: expected one of the keys "
                                      "file, topology, class, algo, proto, ranks, gpus_per_thread, disable, enable"},
             Case{"bad-disable.yaml", "bad-disable.yaml:2:118: manifest.datasets[0].disable[1]: expected one of ring, tree, "
                                      "rhd, nvls, nvls_tree, hierarchical, collnet, sendrecv, alltoall, alltoall_pairwise, "
                                      "found 'warp'"},
             Case{"bad-enable.yaml", "bad-enable.yaml:2:120: manifest.datasets[0].enable[1]: expected an algorithm "
                                     "NCCL leaves off by default: collnet (as NCCL_COLLNET_ENABLE=1), found 'nvls'"},
             Case{"no-datasets.yaml", "manifest.datasets: expected a list of datasets (required), found no such field"},
             Case{"no-file.yaml", "manifest.datasets[0].file: expected a string (required), found no such field"},
             Case{"bad-proto.yaml", "manifest.datasets[0].proto: expected one of ll, ll128, simple or auto, found "
                                    "'fast'"},
             Case{"zero-ranks.yaml", "manifest.datasets[0].ranks: expected a rank count of 1 or more, found 0"},
             Case{"zero-gpus-per-thread.yaml", "manifest.datasets[0].gpus_per_thread: expected 1 or more GPUs per "
                                               "thread, found 0"},
             Case{"gpus-per-thread-disagree.yaml", "gpus-per-thread-disagree.yaml:2:5: gpus_per_thread: expected -g 8, "
                                                   "as "},
             Case{"gpus-per-thread-disagree.yaml", "new-layout-allreduce.log says, found 2"},
             Case{"ranks-disagree.yaml", "ranks-disagree.yaml:2:5: ranks: expected the 8 ranks that"},
             Case{"ranks-vs-topology.yaml", "new-layout-allreduce.log: ranks: expected as many ranks as topology "
                                            "'two-gpus'"},
             Case{"missing-log.yaml", "missing-log.yaml:2:12: manifest.datasets[0].file: expected a file that "
                                      "exists (paths are relative to the manifest's folder), found '"},
             Case{"missing-log.yaml", "missing.log', which does not"},
             Case{"no-collective.yaml", "unnamed-run.log: collective: expected a log that names its collective"},
         }) {
        INFO(c.file);
        CHECK_THAT(load_error(c.file), Catch::Contains(c.expect));
    }
}
