#pragma once
// Runs the collsim binary as a user would and captures what it printed.
#include <string>

namespace collsim::test {

struct CliResult {
    int exit_code = -1;
    std::string out, err;
};

// `args` is appended to the binary path as shell words; paths in it are
// relative to the source root (the command runs there).
CliResult run_cli(const std::string& args);

// As run_cli, with stderr on a pseudo-terminal (what a user at a terminal
// sees: progress lines) and stdout still captured apart. exit_code -2: no
// pseudo-terminal could be opened here.
CliResult run_cli_on_terminal(const std::string& args);

std::string source_path(const std::string& relative);

// A file's whole text (empty when it cannot be read).
std::string slurp(const std::string& path);

}  // namespace collsim::test
