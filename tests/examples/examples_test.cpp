#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/run_cli.hpp"

namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
}  // namespace

// Every example folder with a `command` (collsim's arguments) and an
// `expected.txt` is run and diffed. COLLSIM_UPDATE_GOLDEN=1 rewrites the
// expected outputs instead (then review the diff before committing).
TEST_CASE("every example still prints its recorded output") {
    const bool update = std::getenv("COLLSIM_UPDATE_GOLDEN") != nullptr;
    int checked = 0;
    for (const auto& entry : fs::directory_iterator(collsim::test::source_path("examples"))) {
        const fs::path cmd = entry.path() / "command", expected = entry.path() / "expected.txt";
        if (!fs::exists(cmd) || !fs::exists(expected)) continue;
        std::string args = slurp(cmd);
        while (!args.empty() && (args.back() == '\n' || args.back() == ' ')) args.pop_back();
        INFO(entry.path().filename().string() << ": collsim " << args);
        const auto r = collsim::test::run_cli(args);
        CHECK(r.exit_code == 0);
        if (update) {
            std::ofstream(expected) << r.out;
        } else {
            CHECK(r.out == slurp(expected));
        }
        ++checked;
    }
    CHECK(checked >= 1);
}
