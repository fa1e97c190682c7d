// What collsim costs on inputs at and past its limits (sim/core/limits.hpp),
// measured as a user runs it: each case writes its inputs to a scratch folder,
// runs the collsim binary on them and reports its exit code, wall time and peak
// resident memory (wait4's ru_maxrss, the child's own). Issue 24's cases: a
// 10^7-op 8-rank trace, a 10^6-GPU topology and a 10^6-rank trace, each to
// finish within its bound (2 GiB) or be refused at once; and native traces of
// growing op counts, for the memory and time one op costs.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace collsim::bench {
namespace {

namespace fs = std::filesystem;

struct Usage {
    int exit_code = -1;
    double wall_s = 0, peak_rss_mib = 0;
    std::string first_error;
};

// Runs `argv` with stdout discarded and stderr kept in `err_path`.
Usage run_child(const std::vector<std::string>& args, const std::string& err_path) {
    std::fflush(stdout);  // else the child's freopen writes the parent's buffered lines
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        if (!std::freopen("/dev/null", "w", stdout) || !std::freopen(err_path.c_str(), "w", stderr)) _exit(126);
        std::vector<char*> argv;
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    int status = 0;
    rusage ru{};
    wait4(pid, &status, 0, &ru);
    Usage u;
    u.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    u.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    u.peak_rss_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;  // Linux reports KiB
    if (FILE* f = std::fopen(err_path.c_str(), "r")) {
        char line[400] = {};
        while (std::fgets(line, sizeof line, f)) {
            std::string s(line);
            if (!s.empty() && s.back() == '\n') s.pop_back();
            if (!s.empty()) {
                u.first_error = s;
                break;
            }
        }
        std::fclose(f);
    }
    return u;
}

// A native JSON trace of `ops` ops in all on `ranks` ranks, each rank its own
// program (as per-rank profiler traces are): compute ops of 10 us, every tenth
// op a 1 MiB AllReduce over every rank, each op after the one before.
void write_trace(const std::string& path, int64_t ops, int ranks) {
    FILE* f = std::fopen(path.c_str(), "w");
    fmt::print(f, "{{\"ranks\": {}, \"communicators\": {{\"world\": \"all\"}}, \"programs\": [\n", ranks);
    const int64_t per_rank = ops / ranks;
    for (int r = 0; r < ranks; ++r) {
        fmt::print(f, "{{\"ranks\": {}, \"ops\": [\n", r);
        for (int64_t i = 0; i < per_rank; ++i) {
            const char* sep = i + 1 < per_rank ? ",\n" : "\n";
            if (i % 10 == 9)
                fmt::print(f, "{{\"name\": \"o{}\", \"collective\": \"allreduce\", \"bytes\": \"1MiB\", \"comm\": "
                              "\"world\", \"after\": [\"o{}\"]}}{}",
                           i, i - 1, sep);
            else if (i > 0)
                fmt::print(f, "{{\"name\": \"o{}\", \"duration\": \"10us\", \"after\": [\"o{}\"]}}{}", i, i - 1, sep);
            else
                fmt::print(f, "{{\"name\": \"o{}\", \"duration\": \"10us\"}}{}", i, sep);
        }
        fmt::print(f, "]}}{}\n", r + 1 < ranks ? "," : "");
    }
    fmt::print(f, "]}}\n");
    std::fclose(f);
}

// An SPMD trace of `ranks` ranks: one 1 MiB AllReduce over all of them.
void write_wide_trace(const std::string& path, int ranks) {
    FILE* f = std::fopen(path.c_str(), "w");
    fmt::print(f, "{{\"ranks\": {}, \"communicators\": {{\"world\": \"all\"}}, \"program\": [{{\"name\": \"ar\", "
                  "\"collective\": \"allreduce\", \"bytes\": \"1MiB\", \"comm\": \"world\"}}]}}\n",
               ranks);
    std::fclose(f);
}

// `nodes` DGX H100s (8 GPUs each) on a three-tier rail fat-tree.
void write_cluster(const std::string& path, const std::string& source_root, int64_t nodes) {
    FILE* f = std::fopen(path.c_str(), "w");
    fmt::print(f,
               "schema: 1\nname: cluster-{}n\ntemplates:\n  dgx-h100: {{file: {}/topologies/dgx-h100.yaml}}\n"
               "nodes:\n  - {{template: dgx-h100, count: {}}}\nfabrics:\n  - name: ib\n    kind: rail_fat_tree\n"
               "    endpoints: \"node*.nic*\"\n    tiers: 3\n    radix: 128\n    oversubscription: [\"1:1\", \"1:1\"]\n"
               "    link: {{kind: network, bandwidth: 400Gb/s, latency: 100ns}}\n    switch: {{latency: 300ns}}\n",
               nodes, source_root, nodes);
    std::fclose(f);
}

void report(const std::string& name, const std::string& input, const Usage& u) {
    fmt::print("{:<34} {:>12} {:>5} {:>9.2f} {:>10.1f}  {}\n", name, input, u.exit_code, u.wall_s, u.peak_rss_mib,
               u.first_error.substr(0, 160));
    std::fflush(stdout);
}

int run(const std::string& collsim, const std::string& source_root, const std::vector<int64_t>& op_counts,
        bool big) {
    const fs::path dir = fs::temp_directory_path() / fmt::format("collsim-bench-resources-{}", ::getpid());
    fs::create_directories(dir);
    const std::string err = (dir / "stderr.txt").string();
    const std::string dgx = source_root + "/topologies/dgx-h100.yaml";
    const std::string big_cluster = source_root + "/topologies/cluster-h100-16384n.yaml";
    fmt::print("{:<34} {:>12} {:>5} {:>9} {:>10}  {}\n", "case", "input", "exit", "wall(s)", "RSS(MiB)",
               "first stderr line");
    for (const int64_t ops : op_counts) {
        const std::string trace = (dir / fmt::format("trace-{}.json", ops)).string();
        write_trace(trace, ops, 8);
        const auto bytes = static_cast<int64_t>(fs::file_size(trace));
        const Usage u = run_child({collsim, "replay", "--quiet", "--topology", dgx, "--trace", trace, "--format",
                                   "json", "--links", "0"},
                                  err);
        report(fmt::format("replay {} ops, 8 ranks", ops), fmt::format("{:.1f} MB", static_cast<double>(bytes) / 1e6), u);
        fs::remove(trace);
    }
    if (big) {
        const std::string trace = (dir / "trace-1e7.json").string();
        write_trace(trace, 10'000'000, 8);
        const auto bytes = static_cast<int64_t>(fs::file_size(trace));
        report("replay 10^7 ops, 8 ranks", fmt::format("{:.1f} MB", static_cast<double>(bytes) / 1e6),
               run_child({collsim, "replay", "--quiet", "--topology", dgx, "--trace", trace}, err));
        fs::remove(trace);
    }
    const std::string cluster = (dir / "cluster-125000n.yaml").string();
    write_cluster(cluster, source_root, 125'000);
    report("topo check 10^6 GPUs", "125,000 nodes", run_child({collsim, "topo", "check", cluster}, err));
    report("coll 10^6 GPUs", "125,000 nodes",
           run_child({collsim, "coll", "--quiet", "--topology", cluster, "--sizes", "1M"}, err));
    const std::string wide = (dir / "trace-1e6-ranks.json").string();
    write_wide_trace(wide, 1'000'000);
    report("replay 10^6 ranks, 10^6 GPUs", "1 op x 10^6",
           run_child({collsim, "replay", "--quiet", "--topology", cluster, "--trace", wide}, err));
    report("replay 10^6 ranks, 131,072 GPUs", "1 op x 10^6",
           run_child({collsim, "replay", "--quiet", "--topology", big_cluster, "--trace", wide}, err));
    report("replay --trace /dev/zero", "device",
           run_child({collsim, "replay", "--quiet", "--topology", dgx, "--trace", "/dev/zero"}, err));
    report("coll --topology /dev/zero", "device",
           run_child({collsim, "coll", "--quiet", "--topology", "/dev/zero"}, err));
    fs::remove_all(dir);
    return 0;
}

}  // namespace
}  // namespace collsim::bench

int main(int argc, char** argv) {
    CLI::App app{"collsim's time and memory on inputs at and past its limits (BENCHMARKS.md)"};
    std::string collsim = "build/collsim", root = ".";
    std::vector<int64_t> ops{10'000, 100'000, 400'000};
    bool big = true;
    app.add_option("--collsim", collsim, "the collsim binary")->capture_default_str();
    app.add_option("--source-root", root, "the source tree (for topologies/)")->capture_default_str();
    app.add_option("--ops", ops, "op counts of the scaling traces (8 ranks)")->capture_default_str();
    app.add_flag("!--no-big", big, "skip the 10^7-op trace (400 MB written to the temporary folder)");
    CLI11_PARSE(app, argc, argv);
    return collsim::bench::run(std::filesystem::absolute(collsim).string(), std::filesystem::absolute(root).string(),
                               ops, big);
}
