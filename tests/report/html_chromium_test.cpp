// The HTML reports as a browser shows them: headless Chromium renders the
// page, and the rendered DOM has the tables and the SVG plots, while its log
// shows that nothing was fetched, refused or failed. Skipped, with a warning,
// where chromium is not installed (scripts/install-deps.sh installs it).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <string>

#include "tests/support/html_checks.hpp"
#include "tests/support/run_cli.hpp"

namespace collsim::test {

namespace {

int occurrences(const std::string& text, const std::string& what) {
    int n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// Renders `args --html FILE`'s page; checks it loaded whole. nullopt: no chromium.
std::optional<std::string> rendered_dom(const std::string& args, int exit_code) {
    const std::string path = "/tmp/collsim-chromium-page-" + std::to_string(::getpid()) + ".html";
    const CliResult r = run_cli(args + " --html " + path);
    INFO(r.err);
    REQUIRE(r.exit_code == exit_code);
    const std::optional<ChromiumRender> page = render_in_chromium(path);
    std::remove(path.c_str());
    if (!page) return std::nullopt;
    INFO(page->log);
    // A console message is a refused load (the page's policy allows none) or an error.
    CHECK(page->log.find("INFO:CONSOLE") == std::string::npos);
    CHECK(page->log.find("Failed to load") == std::string::npos);
    CHECK(page->log.find("net::ERR") == std::string::npos);
    CHECK(page->log.find("chromium exited") == std::string::npos);
    for (const char* fetches : {"<img", "<link", "<script", "<iframe", "<object", "<embed"})
        CHECK(page->dom.find(fetches) == std::string::npos);
    return page->dom;
}

}  // namespace

TEST_CASE("sweep's HTML report renders in Chromium with its tables and plots, loading nothing", "[html][chromium]") {
    const std::optional<std::string> dom = rendered_dom("sweep tests/data/sweep/coll-grid.yaml", 0);
    if (!dom) {
        WARN("chromium is not installed: the HTML report was not rendered (scripts/install-deps.sh installs it)");
        return;
    }
    CHECK(occurrences(*dom, "<table") == 2);
    CHECK(occurrences(*dom, "<svg") == 2);
    CHECK(occurrences(*dom, "<polyline") == 4);  // ring and auto, on each op's chart
    CHECK_THAT(*dom, Catch::Contains("How this report was made"));
}

TEST_CASE("compare's HTML report renders in Chromium with its bar chart and tables, loading nothing", "[html][chromium]") {
    const std::optional<std::string> dom = rendered_dom(
        "compare -t tests/data/compare/fat-tree-8n.yaml --b-set fabrics.net.oversubscription=2:1 --op alltoall "
        "--sizes 1M,64M --quiet",
        0);
    if (!dom) {
        WARN("chromium is not installed: the HTML report was not rendered (scripts/install-deps.sh installs it)");
        return;
    }
    CHECK(occurrences(*dom, "<table") == 3);
    CHECK(occurrences(*dom, "<svg") == 1);
    CHECK(occurrences(*dom, "class=\"bar\"") == 2);
}

}  // namespace collsim::test
