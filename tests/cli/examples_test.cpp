// Golden outputs of the examples: each README's commands still print what
// the README shows. After an intended change, rerun the commands into the
// .out files (the README says which) and review the diff.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;
using collsim::test::source_path;

namespace {
std::string read(const std::string& relative) {
    std::ifstream in(source_path(relative));
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
}  // namespace

TEST_CASE("examples/msccl-hierarchical prints its golden output") {
    const std::string dir = "examples/msccl-hierarchical/";
    const std::string common = "coll -t " + dir + "two-dgx-h100.yaml --sizes 8,64K,1M,16M,256M,1G ";
    auto ring = run_cli(common + "--algo ring");
    auto msccl = run_cli(common + "--algo-file " + dir + "hierarchical-allreduce-2x8.xml");
    REQUIRE(ring.exit_code == 0);
    REQUIRE(msccl.exit_code == 0);
    CHECK(ring.out == read(dir + "ring.out"));
    CHECK(msccl.out == read(dir + "msccl.out"));
}
