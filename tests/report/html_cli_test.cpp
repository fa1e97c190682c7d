// --html on sweep, compare, plan and regress: one well-formed page each, with
// its tables, its SVG charts and the inputs' hashes, the same bytes each run.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
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

}  // namespace collsim::test
