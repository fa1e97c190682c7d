// `topo dot --collapse` renders with Graphviz for every shipped topology
// (issue 24). Graphviz is a test tool only (scripts/install-deps.sh); without
// `dot` on PATH the test says so and passes.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "tests/support/run_cli.hpp"

namespace fs = std::filesystem;
using collsim::test::run_cli;
using collsim::test::source_path;

namespace {
std::vector<std::string> shipped_topologies() {
    std::vector<std::string> files;
    for (const char* dir : {"topologies", "validation/data/topologies"})
        for (const auto& e : fs::directory_iterator(source_path(dir)))
            if (e.path().extension() == ".yaml") files.push_back(fs::relative(e.path(), source_path(".")).string());
    for (const char* f : {"examples/msccl-hierarchical/two-dgx-h100.yaml", "examples/p5-import-ddp/p5-2node.yaml",
                          "examples/p5-import-ddp/p5.48xlarge-nccl-topo.xml"})
        files.push_back(f);
    std::sort(files.begin(), files.end());
    return files;
}
}  // namespace

TEST_CASE("topo dot labels break lines as DOT does and round bandwidths") {
    const auto r = run_cli("topo dot topologies/dgx-h100.yaml");
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("label=\"gpu0\\ngpu\"]"));  // DOT's \n, not an escaped backslash
    CHECK_THAT(r.out, !Catch::Contains("\\\\n"));
    CHECK_THAT(r.out, !Catch::Contains("e+"));
}

TEST_CASE("dot -Tsvg renders topo dot --collapse of every shipped topology", "[slow]") {
    if (std::system("command -v dot >/dev/null 2>&1") != 0) {
        WARN("Graphviz's dot is not on PATH: skipped (scripts/install-deps.sh installs it)");
        return;
    }
    const std::string dot = (fs::temp_directory_path() / ("collsim-dot-" + std::to_string(::getpid()) + ".dot")).string();
    for (const std::string& file : shipped_topologies()) {
        INFO(file);
        const auto r = run_cli("topo dot --collapse " + file);
        REQUIRE(r.exit_code == 0);
        std::ofstream(dot) << r.out;
        CHECK(std::system(("dot -Tsvg '" + dot + "' -o /dev/null").c_str()) == 0);
    }
    fs::remove(dot);
}
