// Wall time of one whole-collective simulation: ring AllReduce of 1 GiB on the
// 8 GPUs of a DGX H100, through the same library calls as `collsim coll`.
// Loading the topology and building the schedule are timed apart from the
// simulation; the first simulation is timed apart because it fills the route
// cache that later ones reuse. Links run at nominal efficiency (the
// simulate_schedule default); `collsim coll` adds calibration on top.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/communicator.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/exec/simulate.hpp"
#include "sim/hw/routes.hpp"
#include "sim/hw/topology_loader.hpp"

namespace collsim::bench {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// CPU time of this thread: on a shared machine, wall time also counts the
// turns other processes take.
double cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

struct Options {
    std::string topology = COLLSIM_SOURCE_ROOT "/topologies/dgx-h100.yaml";
    int ranks = 8;
    // One ring; what `collsim coll` (NCCL's tuner model) picks for 1 GiB on
    // dgx-h100 when this was written; and a many-channel case, since the
    // network's work grows with the number of concurrent flows.
    std::vector<int> channels{1, 12, 32};
    double seconds = 1.0;  // warm simulations are repeated for at least this long
};

void run(const Options& o) {
    auto t0 = Clock::now();
    const Topology topo = load_topology(o.topology);
    const double load_ms = ms_since(t0);
    if (o.ranks < 2 || o.ranks > static_cast<int>(topo.gpus().size()))
        throw std::invalid_argument(fmt::format("--ranks: expected 2 to {}", topo.gpus().size()));
    const std::vector<DeviceId> ranks(topo.gpus().begin(), topo.gpus().begin() + o.ranks);
    const AlgorithmInfo* ring = find_algorithm("ring");
    if (!ring) throw std::logic_error("ring algorithm not registered");
    const auto proto = nccl_protocol(ring->family, ProtoKind::simple);
    if (!proto) throw std::logic_error("NCCL has no simple protocol for the ring family");
    const Bytes size(int64_t{1} << 30);
    const CommLayout comm = make_communicator(topo, ranks);

    double load_avg[1] = {0};
    getloadavg(load_avg, 1);
    fmt::print("ring allreduce, 1 GiB, {} ranks, protocol simple, topology {} (loaded in {:.3f} ms)\n", o.ranks,
               o.topology, load_ms);
    fmt::print("medians of repeated warm simulations (routes cached), load average {:.2f}\n", load_avg[0]);
    fmt::print("{:>8} {:>12} {:>12} {:>12} {:>12} {:>9} {:>6} {:>7} {:>13}\n", "channels", "cpu ms/sim",
               "wall ms/sim", "min wall ms", "cold wall ms", "build ms", "runs", "events", "simulated us");
    for (int c : o.channels) {
        t0 = Clock::now();
        const Schedule schedule = ring->build(CollectiveCall{CollOp::allreduce, size, o.ranks, c}, comm);
        const double build_ms = ms_since(t0);

        Routes routes(topo);
        t0 = Clock::now();
        const ScheduleTiming first = simulate_schedule(topo, routes, ranks, schedule, *proto);
        const double cold_ms = ms_since(t0);

        std::vector<double> wall, cpu;
        const auto start = Clock::now();
        while (wall.empty() || std::chrono::duration<double>(Clock::now() - start).count() < o.seconds) {
            const double c0 = cpu_ms();
            t0 = Clock::now();
            const ScheduleTiming t = simulate_schedule(topo, routes, ranks, schedule, *proto);
            wall.push_back(ms_since(t0));
            cpu.push_back(cpu_ms() - c0);
            if (t.time != first.time || t.events != first.events)
                throw std::logic_error("repeated simulations disagree: the simulator is not deterministic");
        }
        fmt::print("{:>8} {:>12.3f} {:>12.3f} {:>12.3f} {:>12.3f} {:>9.3f} {:>6} {:>7} {:>13.3f}\n", c, median(cpu),
                   median(wall), *std::min_element(wall.begin(), wall.end()), cold_ms, build_ms, wall.size(),
                   first.events, first.time.us());
    }
}

}  // namespace
}  // namespace collsim::bench

int main(int argc, char** argv) {
    CLI::App app{"wall time of simulating a 1 GiB ring AllReduce"};
    collsim::bench::Options o;
    app.add_option("topology", o.topology, "topology YAML file")->capture_default_str();
    app.add_option("--ranks,-n", o.ranks, "ranks (the first N GPUs)")->capture_default_str();
    app.add_option("--channels,-c", o.channels, "channel counts to measure")->capture_default_str();
    app.add_option("--seconds", o.seconds, "repeat warm simulations for at least this long")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    try {
        collsim::bench::run(o);
    } catch (const std::exception& e) {
        fmt::print(stderr, "bench_ring: {}\n", e.what());
        return 1;
    }
    return 0;
}
