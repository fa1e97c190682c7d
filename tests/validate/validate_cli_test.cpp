#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;
using collsim::test::slurp;
using collsim::test::source_path;

namespace {

const std::string kLogs = "tests/data/nccl-logs/";
const std::string kDgxTopology = " --topology topologies/dgx-h100.yaml";


std::string temp_dir(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("collsim-validate-test-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir.string();
}

}  // namespace

TEST_CASE("validate --log reports one run's error with the stable JSON names") {
    auto r = run_cli("validate --log " + kLogs + "new-layout-allreduce.log" + kDgxTopology + " --format json");
    REQUIRE(r.exit_code == 0);
    // Only the note on the 0-byte row it skipped (measurement_test.cpp).
    CHECK_THAT(r.err, Catch::StartsWith("collsim: note: ") && Catch::Contains("skipped the rows of 0 bytes"));
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["calibration"] == "defaults");
    REQUIRE(j["datasets"].size() == 1);
    const auto& d = j["datasets"][0];
    for (const char* k : {"file", "op", "ranks", "rows", "algo", "proto", "median_ape_latency_pct",
                          "median_ape_bandwidth_pct", "geomean_ape_pct"})
        CHECK(d.contains(k));
    CHECK(d["file"] == "new-layout-allreduce.log");
    CHECK(d["op"] == "allreduce");
    CHECK(d["ranks"] == 8);
    CHECK(d["gpus_per_thread"] == 8);  // 'nGpus 8'
    CHECK(d["rows"] == 7);
    CHECK(d["latency_rows"] == 3);    // 8 B, 64 B, 1 KiB
    CHECK(d["bandwidth_rows"] == 2);  // 64 MiB, 256 MiB
    for (const char* k : {"median_ape_latency_pct", "median_ape_bandwidth_pct", "geomean_ape_pct"})
        CHECK(j["overall"]["in_sample"].contains(k));
    CHECK(j["overall"]["out_of_sample"].is_null());
    // An AllReduce on a DGX H100's eight GPUs counts towards the 8-GPU
    // NVSwitch scope; a Broadcast on two GPUs does not.
    CHECK(j["overall"]["nvswitch_8gpu_allreduce"]["given"]["rows"] == 7);
    CHECK(j["overall"]["single_node"]["given"]["rows"] == 7);
    CHECK(j["overall"]["multi_node"]["given"]["rows"] == 0);
    const auto b = run_cli("validate --log " + kLogs +
                           "new-layout-broadcast.log --topology tests/data/validate/two-gpus.yaml --format json");
    REQUIRE(b.exit_code == 0);
    const auto jb = nlohmann::json::parse(b.out);
    CHECK(jb["overall"]["given"]["rows"] == 4);
    CHECK(jb["overall"]["nvswitch_8gpu_allreduce"]["given"]["rows"] == 0);
}

TEST_CASE("validate CSV has one line per predicted row, and the table names what is not covered") {
    auto csv = run_cli("validate --log " + kLogs + "new-layout-allreduce.log" + kDgxTopology + " --format csv");
    REQUIRE(csv.exit_code == 0);
    CHECK_THAT(csv.out, Catch::StartsWith("file,class,op,ranks,line,size_bytes,measured_us,predicted_us,ape_pct"));
    CHECK(std::count(csv.out.begin(), csv.out.end(), '\n') == 8);
    CHECK_THAT(csv.out, Catch::Contains("new-layout-allreduce.log,,allreduce,8,26,67108864,675.095,"));

    auto table = run_cli("validate --data tests/data/validate/manifests/good.yaml");
    REQUIRE(table.exit_code == 0);
    CHECK_THAT(table.out, Catch::Contains("new-layout-allreduce.log"));
}

TEST_CASE("validate exits 2 for a truncated log, naming the line") {
    auto r = run_cli("validate --log " + kLogs + "bad/truncated.log" + kDgxTopology);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains("truncated.log:22:1: footer: expected the '# Avg bus bandwidth' line"));
}

TEST_CASE("validate exits 2 for a log of a collective collsim does not model") {
    auto r = run_cli("validate --log " + kLogs + "bad/unsupported-collective.log" + kDgxTopology);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("unsupported-collective.log:2:29: collective: expected a collective collsim "
                                      "models (all_reduce, all_gather, reduce_scatter, alltoall, broadcast, reduce, "
                                      "sendrecv), found 'hypercube_perf'"));
}

TEST_CASE("validate and calibrate exit 2 when the log's ranks do not match the topology's GPUs") {
    const std::string expect =
        "new-layout-allreduce.log: ranks: expected as many ranks as topology 'two-gpus' "
        "(tests/data/validate/two-gpus.yaml) has GPUs: 2, found 8 ranks in tests/data/nccl-logs/new-layout-allreduce.log";
    auto v = run_cli("validate --log " + kLogs + "new-layout-allreduce.log --topology tests/data/validate/two-gpus.yaml");
    CHECK(v.exit_code == 2);
    CHECK_THAT(v.err, Catch::Contains(expect));
    auto c = run_cli("calibrate --log " + kLogs + "new-layout-allreduce.log --topology tests/data/validate/two-gpus.yaml"
                     " -o /dev/null");
    CHECK(c.exit_code == 2);
    CHECK_THAT(c.err, Catch::Contains(expect));
}

TEST_CASE("validate exits 2 on bad options") {
    struct Case {
        std::string args, expect;
    };
    for (const Case& c : {
             Case{"validate --log x.log", "--topology: expected a topology file to go with --log, found 'nothing'"},
             Case{"validate" + kDgxTopology, "--log: expected a log to go with --topology, found 'nothing'"},
             Case{"validate --op allreduce", "--op: expected only with --log, found 'allreduce'"},
             Case{"validate --log " + kLogs + "unnamed-run.log" + kDgxTopology + " --op allscatter",
                  "--op: expected one of allreduce"},
             Case{"validate --format xml", "--format: expected one of table, json, csv, found 'xml'"},
             Case{"validate --proto ll", "--algo/--proto: expected only with --log (datasets.yaml says what each run "
                                         "forced), found 'auto/ll'"},
             Case{"validate --log " + kLogs + "new-layout-allreduce.log" + kDgxTopology + " --proto fast",
                  "--proto: expected one of ll, ll128, simple or auto, found 'fast'"},
             Case{"validate --data /nonexistent", "/nonexistent: file: expected a readable file"},
             Case{"validate --enable collnet", "--enable: expected only with --log (datasets.yaml says what each run "
                                               "turned on), found 'collnet'"},
             Case{"validate --disable nvls", "--disable: expected only with --log (datasets.yaml says what each run "
                                             "turned off), found 'nvls'"},
             Case{"validate --log " + kLogs + "new-layout-allreduce.log" + kDgxTopology + " --disable nvls,warp",
                  "--disable: expected one of ring, tree, rhd, nvls, nvls_tree"},
             Case{"validate --gpus-per-thread 8", "--gpus-per-thread: expected only with --log (datasets.yaml and the "
                                                  "logs say it for each run), found '8'"},
             Case{"validate --log " + kLogs + "sample.csv --topology tests/data/validate/two-gpus.yaml --gpus-per-thread 0",
                  "--gpus-per-thread: expected 1 or more GPUs per thread, found '0'"},
             Case{"calibrate --log " + kLogs + "new-layout-allreduce.log" + kDgxTopology + " -o /dev/null --gpus-per-thread 2",
                  "gpus_per_thread: expected -g 8, as "},
         }) {
        INFO(c.args);
        auto r = run_cli(c.args);
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::Contains(c.expect));
    }
}

TEST_CASE("validate --gpus-per-thread sets the launch floor of a log that does not say it") {
    // sample-mpi.csv does not say how many GPUs each thread drove: one, unless told.
    const std::string log = "validate --log " + kLogs + "sample-mpi.csv" + kDgxTopology + " --format csv";
    const auto own = run_cli(log), shared = run_cli(log + " --gpus-per-thread 8");
    REQUIRE(own.exit_code == 0);
    REQUIRE(shared.exit_code == 0);
    // The 1 KiB row: the GPUs' own time, then 8 launches of 4.2 us.
    CHECK_THAT(own.out, !Catch::Contains(",33.600,"));
    CHECK_THAT(shared.out, Catch::Contains(",1024,21.450,33.600,"));
}

TEST_CASE("a header with two different -g needs --gpus-per-thread to say which") {
    const std::string log = "validate --log " + kLogs + "gpus-conflict.csv --topology topologies/rtx4090-4gpu.yaml";
    const auto r = run_cli(log);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("gpus-conflict.csv:2:61: collective: expected one GPUs-per-thread figure (-g 4 "
                                      "before), or gpus_per_thread: in datasets.yaml or --gpus-per-thread to say which"));
    CHECK(run_cli(log + " --gpus-per-thread 2").exit_code == 0);
}

TEST_CASE("validate --disable keeps the tuner off what the run turned off") {
    const std::string log = "validate --log " + kLogs + "new-layout-allreduce.log" + kDgxTopology + " --format csv";
    const auto with = run_cli(log), without = run_cli(log + " --disable nvls");
    REQUIRE(with.exit_code == 0);
    REQUIRE(without.exit_code == 0);
    CHECK_THAT(with.out, Catch::Contains(",nvls,"));
    CHECK_THAT(without.out, !Catch::Contains(",nvls,"));
}

TEST_CASE("calibrate --disable fits the runs as predicted without what they turned off") {
    const std::string dir = temp_dir("calibrate-disable");
    const std::string cal = "calibrate --log " + kLogs + "new-layout-allreduce.log" + kDgxTopology + " --format json -o " + dir;
    auto with = run_cli(cal + "/with.yaml"), without = run_cli(cal + "/without.yaml --disable nvls");
    REQUIRE(with.exit_code == 0);
    REQUIRE(without.exit_code == 0);
    // Without NVLS the tuner runs a ring, so the defaults predict other times.
    CHECK(nlohmann::json::parse(with.out)["before"] != nlohmann::json::parse(without.out)["before"]);
    auto bad = run_cli(cal + "/bad.yaml --disable nvls,warp");
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.err, Catch::Contains("--disable: expected one of ring, tree, rhd, nvls, nvls_tree"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("validate --op names the collective of a log that does not, and the table checks it") {
    const std::string args = "validate --log " + kLogs + "unnamed-run.log --topology tests/data/validate/two-gpus.yaml";
    auto none = run_cli(args);
    CHECK(none.exit_code == 2);
    CHECK_THAT(none.err, Catch::Contains("collective: expected a log that names its collective"));
    // The table is a broadcast's: read as an AllGather its sizes are not
    // count x 4 B x 2 ranks, so the wrong --op is caught.
    auto wrong = run_cli(args + " --op allgather");
    CHECK(wrong.exit_code == 2);
    CHECK_THAT(wrong.err, Catch::Contains("count: expected count x 4 B x 2 ranks = the size, 8 B, found 2 elements, "
                                          "16 B: the log is not from allgather on 2 ranks"));
}

TEST_CASE("validate --plot writes one SVG per dataset with measured dots and a predicted line") {
    const std::string dir = temp_dir("plot");
    auto r = run_cli("validate --log " + kLogs + "new-layout-allreduce.log" + kDgxTopology + " --plot " + dir);
    REQUIRE(r.exit_code == 0);
    const std::string svg = slurp(dir + "/new-layout-allreduce.svg");
    CHECK_THAT(svg, Catch::StartsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    CHECK_THAT(svg, Catch::Contains("<polyline"));
    std::size_t dots = 0;
    for (std::size_t at = 0; (at = svg.find("<circle", at)) != std::string::npos; ++at) ++dots;
    CHECK(dots == 7 + 1);  // one per row, one in the legend
    CHECK_THAT(svg, Catch::Contains(">128M</text>"));
    CHECK_THAT(svg, Catch::EndsWith("</svg>\n"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("validate and calibrate give byte-identical output for the same inputs") {
    // --cross fits on two threads: the report must not depend on which finishes first.
    const std::string args = "validate --data tests/data/validate/manifests/good.yaml --cross --format json --seed 3";
    auto a = run_cli(args), b = run_cli(args);
    REQUIRE(a.exit_code == 0);
    CHECK(a.out == b.out);
    CHECK_FALSE(nlohmann::json::parse(a.out)["overall"]["out_of_sample"].is_null());
    const std::string dir = temp_dir("determinism");
    const std::string cal = "calibrate --log " + kLogs + "new-layout-allreduce.log" + kDgxTopology + " --format json -o ";
    auto c1 = run_cli(cal + dir + "/a.yaml"), c2 = run_cli(cal + dir + "/b.yaml");
    REQUIRE(c1.exit_code == 0);
    CHECK(slurp(dir + "/a.yaml") == slurp(dir + "/b.yaml"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("calibrate writes a profile that coll and validate take, and that lowers the error") {
    const std::string dir = temp_dir("calibrate");
    auto fit = run_cli("calibrate --log " + kLogs + "new-layout-allreduce.log --log " + kLogs + "old-layout-allreduce.log" +
                       kDgxTopology + " --format json -o " + dir + "/cal.yaml");
    REQUIRE(fit.exit_code == 0);
    const auto j = nlohmann::json::parse(fit.out);
    CHECK(j["rows"] == 14);
    CHECK(j["after"]["geomean_ape_pct"].get<double>() < j["before"]["geomean_ape_pct"].get<double>());
    const std::string profile = slurp(dir + "/cal.yaml");
    CHECK_THAT(profile, Catch::Contains("collsim_calibration: 1"));
    CHECK_THAT(profile, Catch::Contains("fitted_from: \"new-layout-allreduce.log, old-layout-allreduce.log\""));

    auto before = run_cli("validate --log " + kLogs + "new-layout-allreduce.log" + kDgxTopology + " --format json");
    auto after = run_cli("validate --log " + kLogs + "new-layout-allreduce.log" + kDgxTopology + " --format json --calibration " +
                         dir + "/cal.yaml");
    REQUIRE(after.exit_code == 0);
    const auto jb = nlohmann::json::parse(before.out), ja = nlohmann::json::parse(after.out);
    CHECK(ja["calibration"] == dir + "/cal.yaml");
    CHECK(ja["datasets"][0]["geomean_ape_pct"].get<double>() < jb["datasets"][0]["geomean_ape_pct"].get<double>());

    auto coll = run_cli("coll" + kDgxTopology + " --sizes 8 --format json --calibration " + dir + "/cal.yaml");
    REQUIRE(coll.exit_code == 0);
    std::filesystem::remove_all(dir);
}

TEST_CASE("coll --calibration: a launch latency of 20 us adds exactly 11.6 us to NCCL's 8.4") {
    const std::string dir = temp_dir("coll");
    std::ofstream(dir + "/base.yaml") << "collsim_calibration: 1\n"
                                         "base_latency:\n  - {family: ring, proto: simple, latency: 20us}\n";
    const std::string args = "coll" + kDgxTopology + " --algo ring --proto simple --sizes 8 --format json";
    auto plain = run_cli(args), slow = run_cli(args + " --calibration " + dir + "/base.yaml");
    REQUIRE(slow.exit_code == 0);
    const double t0 = nlohmann::json::parse(plain.out)["rows"][0]["time_us"];
    const double t1 = nlohmann::json::parse(slow.out)["rows"][0]["time_us"];
    CHECK(t1 - t0 == Approx(11.6).margin(1e-6));
    std::ofstream(dir + "/bad.yaml") << "collsim_calibration: 1\nbandwidth_efficiency: {nvlink: 0}\n";
    auto bad = run_cli(args + " --calibration " + dir + "/bad.yaml");
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.err, Catch::Contains("bad.yaml:2:32: profile.bandwidth_efficiency.nvlink"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("replay --calibration: slower launches lengthen the step; a bad profile exits 2") {
    const std::string dir = temp_dir("replay");
    std::ofstream(dir + "/slow.yaml") << "collsim_calibration: 1\nbase_latency:\n"
                                         "  - {family: ring, proto: ll, latency: 500us}\n"
                                         "  - {family: ring, proto: ll128, latency: 500us}\n"
                                         "  - {family: ring, proto: simple, latency: 500us}\n";
    const std::string args = "replay" + kDgxTopology + " --trace workloads/samples/tp-decode-8gpu.yaml --format json";
    auto plain = run_cli(args), slow = run_cli(args + " --calibration " + dir + "/slow.yaml");
    REQUIRE(plain.exit_code == 0);
    REQUIRE(slow.exit_code == 0);
    const double t0 = nlohmann::json::parse(plain.out)["step_time_us"];
    const double t1 = nlohmann::json::parse(slow.out)["step_time_us"];
    CHECK(t1 > t0 + 400);  // at least one collective on the critical path pays the 500 us launch
    std::ofstream(dir + "/bad.yaml") << "collsim_calibration: 1\nhop_latency_delta: {pci: 2}\n";
    auto bad = run_cli(args + " --calibration " + dir + "/bad.yaml");
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.err, Catch::Contains("bad.yaml:2:26: profile.hop_latency_delta.pci"));
    std::filesystem::remove_all(dir);
}
