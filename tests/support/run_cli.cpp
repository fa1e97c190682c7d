#include "tests/support/run_cli.hpp"

#include <pty.h>
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

namespace {
std::string temp_base() {
    static std::atomic<int> counter{0};
    return "/tmp/collsim-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}
}  // namespace

CliResult run_cli(const std::string& args) {
    const std::string base = temp_base();
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

CliResult run_cli_on_terminal(const std::string& args) {
    const std::string base = temp_base();
    const std::string cmd =
        "cd '" + std::string(COLLSIM_SOURCE_ROOT) + "' && '" + COLLSIM_BINARY + "' " + args + " >" + base + ".out";
    CliResult r;
    int master = -1, slave = -1;
    if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) {
        r.exit_code = -2;
        return r;
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(master);
        ::close(slave);
        r.exit_code = -2;
        return r;
    }
    if (pid == 0) {
        ::close(master);
        ::dup2(slave, STDERR_FILENO);
        ::close(slave);
        ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(slave);
    // Read while it runs, so a full terminal buffer never blocks it; read()
    // fails (EIO) once the last holder of the terminal's other end exits.
    char buf[4096];
    for (ssize_t n; (n = ::read(master, buf, sizeof buf)) > 0;) r.err.append(buf, static_cast<std::size_t>(n));
    ::close(master);
    int status = 0;
    ::waitpid(pid, &status, 0);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(base + ".out");
    std::remove((base + ".out").c_str());
    return r;
}

}  // namespace collsim::test
