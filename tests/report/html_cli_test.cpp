// --html on sweep, compare, plan and regress: one well-formed page each, with
// its tables, its SVG charts and the inputs' hashes, the same bytes each run.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "sim/core/fnv1a.hpp"
#include "tests/support/html_checks.hpp"
#include "tests/support/run_cli.hpp"

namespace collsim::test {

namespace {

struct TempHtml {
    std::string path;
    explicit TempHtml(const std::string& what) : path("/tmp/collsim-html-" + what + "-" + std::to_string(::getpid()) + ".html") {}
    ~TempHtml() { std::remove(path.c_str()); }
};

// Runs `args --html FILE` twice; the page, after checking both runs wrote the same bytes.
std::string html_of(const std::string& args, int exit_code = 0) {
    TempHtml one("one"), two("two");
    const CliResult a = run_cli(args + " --html " + one.path);
    const CliResult b = run_cli(args + " --html " + two.path);
    INFO(args << "\n" << a.err);
    REQUIRE(a.exit_code == exit_code);
    REQUIRE(b.exit_code == exit_code);
    const std::string html = slurp(one.path);
    REQUIRE(!html.empty());
    CHECK(html == slurp(two.path));
    return html;
}

void check_provenance(const HtmlShape& s, const std::string& command, const std::string& input) {
    // `collsim --version` is "collsim X.Y.Z (commit ...)"; the report names the release alone.
    const std::string version = run_cli("--version").out;
    CHECK_THAT(s.text, Catch::Contains(version.substr(0, version.find(" ("))));
    CHECK_THAT(s.text, Catch::Contains(command));
    CHECK_THAT(s.text, Catch::Contains(input + " " + fnv1a64_hex(slurp(source_path(input)))));
}

}  // namespace

TEST_CASE("sweep --html holds the spec's plots, a row per point and the inputs' hashes", "[html]") {
    const std::string html = html_of("sweep tests/data/sweep/coll-grid.yaml");
    const HtmlShape s = html_shape(html);
    INFO(s.error);
    REQUIRE(s.well_formed);
    CHECK(s.count("svg") == 2);    // busbw against size by algo, for each op
    CHECK(s.count("table") == 2);  // the points, the inputs
    CHECK(s.count("tr") == 1 + 12 + 1 + 2);
    check_provenance(s, "collsim sweep tests/data/sweep/coll-grid.yaml", "tests/data/sweep/coll-grid.yaml");
    CHECK_THAT(s.text, Catch::Contains("topologies/dgx-h100.yaml " + fnv1a64_hex(slurp(source_path("topologies/dgx-h100.yaml")))));
}

TEST_CASE("compare --html holds B/A per row as bars, the rows and each side's busiest links", "[html]") {
    const std::string args = "compare -t tests/data/compare/fat-tree-8n.yaml --b-set fabrics.net.oversubscription=2:1 "
                             "--op alltoall --sizes 1M,64M --links 2 --quiet";
    const HtmlShape s = html_shape(html_of(args));
    INFO(s.error);
    REQUIRE(s.well_formed);
    CHECK(s.count("svg") == 1);
    CHECK(s.count("rect") == 1 + 2);  // the background, a bar per size
    CHECK(s.count("table") == 3);     // rows, links, inputs
    CHECK(s.count("tr") == (1 + 2) + (1 + 2 * 2 * 2) + (1 + 1));
    // The bar's note says what the table's row says: 64M's B/A and verdict.
    std::istringstream table(run_cli(args).out);
    std::string key, a_us, b_us, ratio, verdict;
    for (std::string line; std::getline(table, line) && key != "67108864";) {
        std::istringstream fields(line);
        fields >> key >> a_us >> b_us >> ratio >> verdict;
    }
    REQUIRE(key == "67108864");
    CHECK(verdict == "slower");
    CHECK_THAT(s.text, Catch::Contains(ratio + " slower"));
    check_provenance(s, "collsim " + args, "tests/data/compare/fat-tree-8n.yaml");
}

TEST_CASE("regress --html holds each entry's largest change, every metric that moved and the baseline's hash", "[html]") {
    const std::string base = "/tmp/collsim-html-baseline-" + std::to_string(::getpid()) + ".json";
    REQUIRE(run_cli("regress --suite tests/data/regress/nvlink.yaml --baseline " + base + " --update").exit_code == 0);
    const std::string args = "regress --suite tests/data/regress/nvlink-slow.yaml --baseline " + base + " --tolerance 2%";
    const HtmlShape s = html_shape(html_of(args, 1));
    const std::string baseline_hash = fnv1a64_hex(slurp(base));
    std::remove(base.c_str());
    INFO(s.error);
    REQUIRE(s.well_formed);
    CHECK(s.count("svg") == 1);
    CHECK(s.count("rect") == 1 + 1);  // one entry
    CHECK(s.count("table") == 4);     // entries, metrics, inputs changed, inputs
    CHECK_THAT(s.text, Catch::Contains("FAILED (1 entries)") && Catch::Contains("+4.17% regressed"));
    CHECK_THAT(s.text, Catch::Contains("64M time_us 380.209 396.045 +4.17% REGRESSION 2%"));
    CHECK_THAT(s.text, Catch::Contains("baseline " + base + " " + baseline_hash));
    check_provenance(s, "collsim " + args, "tests/data/regress/nvlink-slow.yaml");
}

TEST_CASE("plan --html holds the step's parts as bars, memory and communication", "[html][plan]") {
    const std::string args = "plan --topology topologies/dgx-h100.yaml --model llama-3-8b --tp 8";
    const HtmlShape s = html_shape(html_of(args));
    INFO(s.error);
    REQUIRE(s.well_formed);
    CHECK(s.count("svg") == 1);
    CHECK(s.count("rect") == 1 + 5);  // compute, bubble, optimizer, TP AllGather and ReduceScatter
    CHECK(s.count("table") == 4);     // step, memory, communication, inputs
    CHECK_THAT(s.text, Catch::Contains("TP ReduceScatter exposed"));
    check_provenance(s, "collsim " + args, "models/llama-3-8b.yaml");
    check_provenance(s, "collsim " + args, "topologies/dgx-h100.yaml");
}

TEST_CASE("plan --search --html ranks the layouts as bars and a table", "[html][plan]") {
    const std::string args =
        "plan --topology topologies/cluster-h100-2n.yaml --model llama-3-8b --search --global-batch 64 --top 5";
    const HtmlShape s = html_shape(html_of(args));
    INFO(s.error);
    REQUIRE(s.well_formed);
    CHECK(s.count("svg") == 1);
    CHECK(s.count("rect") == 1 + 5);  // the five best layouts
    CHECK(s.count("table") == 2);     // the ranking, inputs
    CHECK(s.count("tr") >= 1 + 5);
    CHECK_THAT(s.text, Catch::Contains("ranked by tokens/s"));
    // The page's best layout is the table's.
    const CliResult table = run_cli(args);
    REQUIRE(table.exit_code == 0);
    CHECK_THAT(s.text, Catch::Contains("1. TP"));
    check_provenance(s, "collsim " + args, "topologies/cluster-h100-2n.yaml");
}

TEST_CASE("plan --mode decode --html shows time per token, the layer's split and memory", "[html][plan]") {
    const std::string args = "plan --topology topologies/dgx-h100.yaml --model llama-3-8b --mode decode --tp 8";
    const HtmlShape s = html_shape(html_of(args));
    INFO(s.error);
    REQUIRE(s.well_formed);
    CHECK(s.count("svg") == 1);
    CHECK(s.count("rect") == 1 + 2);  // compute, TP AllReduce x 2
    CHECK(s.count("table") == 3);     // time, memory, inputs
    CHECK_THAT(s.text, Catch::Contains("per token (us)"));
    check_provenance(s, "collsim " + args, "models/llama-3-8b.yaml");
}

}  // namespace collsim::test
