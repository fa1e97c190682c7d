// Loads a topology file, validates it and answers one route query, reporting
// the time of each phase and the process's peak resident memory. One file per
// run, since peak RSS is per process. See BENCHMARKS.md ("Topologies").
//
//   build/bench/bench_topology topologies/cluster-h100-16384n.yaml
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <exception>

#include "sim/hw/routes.hpp"
#include "sim/hw/topology_loader.hpp"

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double peak_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux reports KiB
}
}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_topology FILE\n");
        return 2;
    }
    try {
        // Wall-clock time is what is being measured here; the simulator
        // itself never reads a clock.
        const auto t0 = std::chrono::steady_clock::now();
        const collsim::Topology topo = collsim::load_topology(argv[1]);
        const double load = seconds_since(t0);

        // The farthest pair in rank order: the first GPU and the last.
        const auto t1 = std::chrono::steady_clock::now();
        collsim::Routes routes(topo);
        const collsim::DeviceId a = topo.gpus().front(), b = topo.gpus().back();
        const uint64_t paths = routes.path_count(a, b);
        const collsim::Path p = routes.path(a, b, paths / 2);
        const double route = seconds_since(t1);

        std::printf("%-34s %8zu GPUs %8zu devices %8zu links  load+validate %7.3f s  route %7.3f s (%d hops, %llu "
                    "paths)  total %7.3f s  peak RSS %7.1f MiB\n",
                    topo.name().c_str(), topo.gpus().size(), topo.devices().size(), topo.links().size(), load, route,
                    static_cast<int>(p.channels.size()), static_cast<unsigned long long>(paths), load + route,
                    peak_rss_mib());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    return 0;
}
