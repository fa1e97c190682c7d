// Progress and --wall-limit as a user meets them: on a terminal, into a
// file, stopped part way. A run long enough to show progress on a terminal
// takes more than 2 s, hence [slow] for that one.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;
using collsim::test::run_cli_on_terminal;

namespace {
const std::string kSweep = "coll --topology topologies/cluster-h100-2n.yaml --sizes 8:1G";
const std::string kProgressReplay =
    "replay --topology topologies/cluster-h100-16n.yaml --trace workloads/samples/tp-decode-8gpu.yaml";
const std::string kValidate =
    "validate --log tests/data/nccl-logs/new-layout-allreduce.log --topology topologies/dgx-h100.yaml";
// stderr without the input notes (validate names the 0-byte rows it skips):
// they are not progress, and print the same with --quiet.
std::string progress_without_notes(const std::string& err) {
    std::string out;
    std::size_t at = 0;
    while (at < err.size()) {
        const std::size_t end = std::min(err.find('\n', at), err.size());
        const std::string line = err.substr(at, end - at);
        if (line.rfind("collsim: note: ", 0) != 0) out += line + (end < err.size() ? "\n" : "");
        at = end + 1;
    }
    return out;
}
}  // namespace

TEST_CASE("progress never changes stdout: a terminal with progress and --quiet print the same bytes", "[slow]") {
    // About 3 s here: long enough that progress shows on a terminal.
    const std::string args = "coll --topology topologies/cluster-h100-16n.yaml --algo ring --sizes 2M:256M";
    const auto start = std::chrono::steady_clock::now();
    const auto shown = run_cli_on_terminal(args);
    const auto took = std::chrono::steady_clock::now() - start;
    if (shown.exit_code == -2) {
        WARN("no pseudo-terminal here: the terminal case is not tested");
        return;
    }
    REQUIRE(shown.exit_code == 0);
    const auto quiet = run_cli_on_terminal(args + " --quiet");
    REQUIRE(quiet.exit_code == 0);
    CHECK(quiet.err.empty());
    CHECK(shown.out == quiet.out);
    // Drawn in place, and wiped before the results.
    if (took > std::chrono::milliseconds(2500)) {
        CHECK_THAT(shown.err, Catch::Contains("\rcollsim coll: "));
        CHECK_THAT(shown.err, Catch::Contains(" of 8 sizes"));
        CHECK_THAT(shown.err, Catch::Contains(" elapsed"));
        CHECK(shown.err.back() == '\r');
    }
}

TEST_CASE("--quiet and a run shorter than 10 s into a file print nothing on stderr, the same stdout") {
    for (const std::string& args : {kSweep, kProgressReplay, kValidate}) {
        const auto plain = run_cli(args), quiet = run_cli(args + " --quiet");
        CHECK(plain.exit_code == quiet.exit_code);
        CHECK(progress_without_notes(plain.err).empty());
        CHECK(progress_without_notes(quiet.err).empty());
        CHECK(plain.err == quiet.err);
        CHECK(plain.out == quiet.out);
    }
}

TEST_CASE("coll --wall-limit stops the sweep, prints the sizes done marked partial, and exits 1") {
    const auto r = run_cli(kSweep + " --wall-limit 1ms");
    CHECK(r.exit_code == 1);
    CHECK(r.out.starts_with("# partial: stopped by --wall-limit 1ms after "));
    CHECK_THAT(r.out, Catch::Contains(" of 28 sizes\n"));
    const auto j = run_cli(kSweep + " --wall-limit 1ms --format json");
    CHECK(j.exit_code == 1);
    const auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["partial"] == true);
    CHECK(doc["stopped"]["by"] == "--wall-limit 1ms");
    CHECK(doc["stopped"]["unit"] == "sizes");
    CHECK(doc["stopped"]["total"] == 28);
    CHECK(doc["stopped"]["done"] < 28);
    CHECK(doc["rows"].size() == doc["stopped"]["done"]);
}

TEST_CASE("replay --wall-limit prints how far the replay got, marked partial, and exits 1") {
    const auto r = run_cli(kProgressReplay + " --wall-limit 1ms");
    CHECK(r.exit_code == 1);
    CHECK(r.out.starts_with("# partial: stopped by --wall-limit 1ms after "));
    CHECK_THAT(r.out, Catch::Contains(" ops\n# replay of workloads/samples/tp-decode-8gpu.yaml on "));
    const auto j = run_cli(kProgressReplay + " --wall-limit 1ms --format json");
    CHECK(j.exit_code == 1);
    const auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["partial"] == true);
    CHECK(doc["stopped"]["unit"] == "ops");
    for (const char* k : {"trace", "topology", "simulated_us", "events"}) CHECK(doc.contains(k));
}

TEST_CASE("validate --wall-limit prints the rows done marked partial and exits 1 whatever the thresholds") {
    const auto r = run_cli(kValidate + " --wall-limit 1ms --max-bandwidth-error 1000");
    CHECK(r.exit_code == 1);
    CHECK(r.out.starts_with("# partial: stopped by --wall-limit 1ms after "));
    CHECK_THAT(r.out, Catch::Contains(" rows\n# collsim validate: "));
    const auto j = run_cli(kValidate + " --wall-limit 1ms --format json");
    CHECK(j.exit_code == 1);
    const auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["partial"] == true);
    CHECK(doc["stopped"]["unit"] == "rows");
    CHECK(doc.contains("datasets"));
}

TEST_CASE("a --wall-limit a run does not reach changes nothing") {
    const auto plain = run_cli(kSweep), limited = run_cli(kSweep + " --wall-limit 10min");
    CHECK(limited.exit_code == 0);
    CHECK(limited.out == plain.out);
}

TEST_CASE("a --wall-limit without a unit is bad input that names the option") {
    for (const std::string& cmd : {kSweep, kProgressReplay, kValidate}) {
        const auto r = run_cli(cmd + " --wall-limit 30");
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK_THAT(r.err, Catch::Contains("--wall-limit: expected a unit after the number"));
        CHECK_THAT(r.err, Catch::Contains("'30'"));
    }
}

TEST_CASE("a --wall-limit of no time is bad input") {
    const auto r = run_cli(kSweep + " --wall-limit 0s");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("--wall-limit: expected a positive time, found '0s'"));
}

TEST_CASE("a --wall-limit that is not a time is bad input") {
    const auto r = run_cli(kSweep + " --wall-limit soon");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("--wall-limit: expected a time with a unit"));
}
