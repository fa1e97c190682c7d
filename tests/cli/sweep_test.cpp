// collsim sweep: the CSV, its independence from -j and processes, resume,
// plots and located spec errors.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/run_cli.hpp"

namespace collsim::test {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::string temp_path(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / "collsim-sweep-test";
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

}  // namespace

TEST_CASE("sweep writes a row per grid point, parameters then metrics", "[sweep]") {
    const CliResult r = run_cli("sweep tests/data/sweep/coll-grid.yaml");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 1 + 2 * 3 * 2);
    CHECK(lines[0] ==
          "point,topology,op,size,algo,chosen_algo,chosen_proto,chosen_channels,tier,time_us,algbw_GBps,busbw_GBps,"
          "hang,busiest_link,busiest_link_util,busiest_switch_link,busiest_switch_link_util");
    // The last parameter varies fastest.
    CHECK(lines[1].starts_with("0,../../../topologies/dgx-h100.yaml,allreduce,64K,ring,ring,"));
    CHECK(lines[2].starts_with("1,../../../topologies/dgx-h100.yaml,allreduce,64K,auto,"));
    CHECK(lines[7].starts_with("6,../../../topologies/dgx-h100.yaml,allgather,64K,ring,"));
    for (std::size_t i = 1; i < lines.size(); ++i) CHECK(lines[i].find(",no,") != std::string::npos);
    CHECK(r.err.find("12 points: 12 run") != std::string::npos);
}

TEST_CASE("sweep output is the same for -j 1 and -j 2", "[sweep]") {
    const CliResult one = run_cli("sweep tests/data/sweep/coll-grid.yaml -j 1");
    const CliResult two = run_cli("sweep tests/data/sweep/coll-grid.yaml -j 2");
    REQUIRE(one.exit_code == 0);
    REQUIRE(two.exit_code == 0);
    CHECK(one.out == two.out);
}

TEST_CASE("sweep of a zip takes the i-th value of every list", "[sweep]") {
    const CliResult r = run_cli("sweep tests/data/sweep/coll-zip.yaml");
    REQUIRE(r.exit_code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 4);
    CHECK(lines[1].starts_with("0,../../../topologies/dgx-h100.yaml,8K,ll,"));
    CHECK(lines[3].starts_with("2,../../../topologies/dgx-h100.yaml,16M,simple,"));
    // What ran is what the point asked for.
    CHECK(lines[2].find(",ll128,") != std::string::npos);
}

TEST_CASE("sweep resumes: points already in the output are not run again", "[sweep]") {
    const std::string out = temp_path("resume.csv");
    std::filesystem::remove(out);
    REQUIRE(run_cli("sweep tests/data/sweep/coll-grid.yaml -o " + out).exit_code == 0);
    const std::string full = slurp(out);
    // Keep the header and the first five rows, as a run stopped early leaves them.
    auto lines = lines_of(full);
    {
        std::ofstream cut(out, std::ios::trunc);
        for (std::size_t i = 0; i < 6; ++i) cut << lines[i] << "\n";
    }
    const CliResult again = run_cli("sweep tests/data/sweep/coll-grid.yaml -o " + out);
    INFO(again.err);
    REQUIRE(again.exit_code == 0);
    CHECK(again.err.find("12 points: 7 run, 5 from") != std::string::npos);
    CHECK(slurp(out) == full);
    // A different spec's output is not resumed into.
    const CliResult other = run_cli("sweep tests/data/sweep/coll-zip.yaml -o " + out);
    CHECK(other.exit_code == 2);
    CHECK(other.err.find(out + ":1:1: header") != std::string::npos);
}

TEST_CASE("sweep draws one SVG per plot, a line per group", "[sweep]") {
    const std::string dir = temp_path("plots");
    std::filesystem::remove_all(dir);
    const CliResult r = run_cli("sweep tests/data/sweep/coll-grid.yaml --plot " + dir);
    REQUIRE(r.exit_code == 0);
    // op varies too, so each op gets its own chart.
    for (const char* name : {"busbw_GBps-vs-size-by-algo-1.svg", "busbw_GBps-vs-size-by-algo-2.svg"}) {
        const std::string svg = slurp(dir + "/" + name);
        INFO(name);
        REQUIRE(!svg.empty());
        CHECK(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        std::size_t lines = 0;
        for (std::size_t at = 0; (at = svg.find("class=\"series\"", at)) != std::string::npos; ++at) ++lines;
        CHECK(lines == 2);
    }
    CHECK(slurp(dir + "/busbw_GBps-vs-size-by-algo-1.svg").find("op=allreduce") != std::string::npos);
}

TEST_CASE("sweep varies a topology field through set.PATH and shows the spine's load", "[sweep]") {
    const CliResult r = run_cli("sweep tests/data/sweep/coll-set.yaml");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0].find(",set.fabrics.ib.oversubscription,") != std::string::npos);
    CHECK(lines[1].find(",1:1,alltoall,") != std::string::npos);
    CHECK(lines[2].find(",4:1,alltoall,") != std::string::npos);
    // The last column: the busiest switch-to-switch link's utilisation, higher at 4:1.
    const auto util = [](const std::string& line) { return std::stod(line.substr(line.rfind(',') + 1)); };
    CHECK(util(lines[2]) > util(lines[1]));
    const CliResult bad = run_cli("sweep tests/data/sweep/bad-set.yaml");
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("bad-set.yaml:4:36: point 0 --set #1 'fabrics.ib.oversubscriptio=1:1'") != std::string::npos);
}

TEST_CASE("sweep replays points of a trace", "[sweep]") {
    const CliResult r = run_cli("sweep tests/data/sweep/replay.yaml -j 2");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 5);
    CHECK(lines[0] == "point,topology,trace,model,step_time_us,compute_share,exposed_comm_share,idle_share,"
                      "collectives,hang,busiest_link,busiest_link_util,busiest_switch_link,busiest_switch_link_util");
    CHECK(lines[1].find(",no,gpu") != std::string::npos);
}

TEST_CASE("sweep plans training layouts, marking those that do not fit", "[sweep]") {
    const CliResult r = run_cli("sweep tests/data/sweep/plan.yaml");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 5);
    CHECK(lines[0] == "point,model,topology,tp,micro_batch,fits,memory_GiB,step_time_us,tokens_per_s,mfu,bubble_share,"
                      "exposed_comm_share");
    // TP1 with micro-batch 2 needs more than 80 GB in plan's memory model: no step time.
    CHECK(lines[2].find(",1,2,no,") != std::string::npos);
    CHECK(lines[2].ends_with(",,,,,"));
    CHECK(lines[3].find(",8,1,yes,") != std::string::npos);
    // The same layout as `collsim plan` gives.
    const CliResult plan = run_cli("plan --model llama-3-8b --topology topologies/cluster-h100-2n.yaml --tp 8 --format json");
    REQUIRE(plan.exit_code == 0);
    CHECK(plan.out.find("\"step_time_us\": 271552.5") != std::string::npos);
    CHECK(lines[3].find(",271552.5") != std::string::npos);
}

TEST_CASE("sweep spec errors name the spec's line and column", "[sweep]") {
    const CliResult name = run_cli("sweep tests/data/sweep/bad-parameter.yaml");
    CHECK(name.exit_code == 2);
    CHECK(name.err.find("bad-parameter.yaml:4:3: parameters.sizes: expected a parameter") != std::string::npos);
    const CliResult op = run_cli("sweep tests/data/sweep/bad-op.yaml");
    CHECK(op.exit_code == 2);
    CHECK(op.err.find("bad-op.yaml:5:8: point 1 --op") != std::string::npos);
    const CliResult zip = run_cli("sweep tests/data/sweep/bad-zip.yaml");
    CHECK(zip.exit_code == 2);
    CHECK(zip.err.find("bad-zip.yaml:6:9: parameters.algo: expected 3 values") != std::string::npos);
    CHECK(run_cli("sweep tests/data/sweep/coll-grid.yaml -j 0").exit_code == 2);
    CHECK(run_cli("sweep tests/data/sweep/missing.yaml").exit_code == 2);
    const CliResult device = run_cli("sweep tests/data/sweep/coll-zip.yaml -o /dev/null");
    CHECK(device.exit_code == 2);
    CHECK(device.err.find("-o: expected a regular file") != std::string::npos);
}

#ifdef COLLSIM_HAVE_MPI
TEST_CASE("sweep under mpirun -n 2 writes the CSV of one process", "[sweep]") {
    if (std::system("command -v mpirun > /dev/null 2>&1") != 0) {
        WARN("mpirun is not installed: skipped");
        return;
    }
    const std::string out = temp_path("mpi.csv");
    std::filesystem::remove(out);
    const std::string cmd = "cd " + source_path("") + " && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " +
                            "mpirun --oversubscribe -n 2 " + COLLSIM_BINARY +
                            " sweep tests/data/sweep/coll-grid.yaml -o " + out + " 2> " + out + ".err";
    REQUIRE(std::system(cmd.c_str()) == 0);
    CHECK(slurp(out) == run_cli("sweep tests/data/sweep/coll-grid.yaml").out);
    CHECK(slurp(out + ".err").find("over 2 processes") != std::string::npos);
}
#endif

}  // namespace collsim::test
