// Time and memory of one reduction-order study, through the same library call
// as `collsim numerics`: the simulated arrival order, the combine trees, and
// the reduction of every element over every rank on the CPU. One case per
// process, since peak RSS is per process.

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench/process_usage.hpp"
#include "sim/numerics/numerics_run.hpp"

namespace collsim::bench {
namespace {

struct Options {
    std::string algo = "ring";
    int ranks = 1024;
    int64_t elements = 10'000'000;
    std::string dtype = "bf16";
    uint64_t seed = 0;
};

void run(const Options& o) {
    NumericsRequest req;
    req.configs.front().algo = o.algo;
    req.configs.front().ranks = o.ranks;
    req.elements = o.elements;
    const auto dtype = float_format_from(o.dtype);
    if (!dtype) throw std::invalid_argument(fmt::format("--dtype: expected {}, found '{}'", float_format_choices(), o.dtype));
    req.dtype = *dtype;
    req.seed = o.seed;

    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = process_cpu_s();
    const NumericsReport report = run_numerics(req);
    const double cpu = process_cpu_s() - c0;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    double load_avg[1] = {0};
    getloadavg(load_avg, 1);
    const ReductionStats& st = report.results.front().stats;
    fmt::print("numerics {} allreduce, {} elements x {} ranks, {}, {} hardware threads, load average {:.2f}\n",
               o.algo, o.elements, o.ranks, o.dtype, std::thread::hardware_concurrency(), load_avg[0]);
    fmt::print("{:>9} {:>9} {:>9} {:>22} {:>13} {:>13}\n", "wall s", "cpu s", "cpu/wall", "element-ranks/s (wall)",
               "peak RSS MiB", "max rel err");
    fmt::print("{:>9.2f} {:>9.2f} {:>9.2f} {:>22.3e} {:>13.1f} {:>13.6g}\n", wall, cpu, cpu / wall,
               static_cast<double>(o.elements) * o.ranks / wall, peak_rss_mib(), st.max_rel_error);
}

}  // namespace
}  // namespace collsim::bench

int main(int argc, char** argv) {
    CLI::App app{"time and memory of a reduction-order study (collsim numerics)"};
    collsim::bench::Options o;
    app.add_option("--algo", o.algo, "algorithm")->capture_default_str();
    app.add_option("--ranks,-n", o.ranks, "ranks")->capture_default_str();
    app.add_option("--elements,-e", o.elements, "elements per rank")->capture_default_str();
    app.add_option("--dtype", o.dtype, "fp32, bf16 or fp16")->capture_default_str();
    app.add_option("--seed", o.seed, "seed for inputs and jitter")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    try {
        collsim::bench::run(o);
    } catch (const std::exception& e) {
        fmt::print(stderr, "bench_numerics: {}\n", e.what());
        return 1;
    }
    return 0;
}
