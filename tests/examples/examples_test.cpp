#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/support/run_cli.hpp"

namespace fs = std::filesystem;
using collsim::test::slurp;

// Every example folder's commands are run and diffed: each file `command`
// (collsim's arguments) with its `expected.txt`, and each `command-NAME` with
// `expected-NAME.txt`. COLLSIM_UPDATE_GOLDEN=1 rewrites the expected outputs
// instead (then review the diff before committing).
TEST_CASE("every example still prints its recorded output", "[examples]") {
    const bool update = std::getenv("COLLSIM_UPDATE_GOLDEN") != nullptr;
    int checked = 0;
    std::vector<fs::path> commands;
    for (const auto& folder : fs::directory_iterator(collsim::test::source_path("examples")))
        if (folder.is_directory())
            for (const auto& file : fs::directory_iterator(folder.path())) {
                const std::string name = file.path().filename().string();
                if (name == "command" || name.rfind("command-", 0) == 0) commands.push_back(file.path());
            }
    std::sort(commands.begin(), commands.end());
    for (const fs::path& cmd : commands) {
        const std::string suffix = cmd.filename().string().substr(std::string("command").size());
        const fs::path expected = cmd.parent_path() / ("expected" + suffix + ".txt");
        if (!fs::exists(expected)) continue;
        std::string args = slurp(cmd);
        while (!args.empty() && (args.back() == '\n' || args.back() == ' ')) args.pop_back();
        INFO(cmd.parent_path().filename().string() << ": collsim " << args);
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
