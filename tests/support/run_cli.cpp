#include "tests/support/run_cli.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace collsim::test {

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string source_path(const std::string& relative) { return std::string(COLLSIM_SOURCE_ROOT) + "/" + relative; }

CliResult run_cli(const std::string& args) {
    static std::atomic<int> counter{0};
    const std::string base = "/tmp/collsim-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    const std::string cmd = "cd '" + std::string(COLLSIM_SOURCE_ROOT) + "' && '" + COLLSIM_BINARY + "' " + args +
                            " >" + base + ".out 2>" + base + ".err";
    int status = std::system(cmd.c_str());
    CliResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(base + ".out");
    r.err = slurp(base + ".err");
    std::remove((base + ".out").c_str());
    std::remove((base + ".err").c_str());
    return r;
}

}  // namespace collsim::test
