// Cost of one collective call as the GPU count grows: `collsim coll`'s path
// (predict_collective under --model auto) on each topology given, smallest
// first. Per case: the tier auto took, the simulated time, CPU and wall time
// of the call (topology loading apart), engine events, peak RSS so far; where
// the chunk-level tier can run (up to --flow-up-to GPUs), its time and cost
// beside. At the end, the cost's growth with the GPU count as a fitted
// exponent (least squares of log CPU time on log GPUs).
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench/process_usage.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/model/predict.hpp"

namespace collsim::bench {
namespace {

using Clock = std::chrono::steady_clock;

struct Timed {
    Prediction p;
    double cpu = 0, wall = 0;
};

Timed timed(const Topology& topo, Routes& routes, PredictRequest req) {
    const double c0 = process_cpu_s();
    const auto w0 = Clock::now();
    Timed t{predict_collective(topo, routes, req, Calibration{}), 0, 0};
    t.cpu = process_cpu_s() - c0;
    t.wall = std::chrono::duration<double>(Clock::now() - w0).count();
    return t;
}

int run(const std::vector<std::string>& topologies, const std::string& op_name, const std::string& size,
        int flow_up_to) {
    const auto op = coll_op_from(op_name);
    if (!op) throw std::runtime_error("--op: " + std::string(coll_op_choices()));
    const Bytes bytes = parse_size(size);
    fmt::print("{:>8} {:>10} {:<22} {:>6} {:>12} {:>9} {:>9} {:>10} {:>9} {:>12} {:>8}\n", "GPUs", "bytes", "algo",
               "tier", "sim(us)", "cpu(s)", "wall(s)", "events/s", "RSS(MiB)", "flow(us)", "cost x");
    std::vector<double> xs, ys;
    for (const std::string& file : topologies) {
        const Topology topo = load_topology(file);
        Routes routes(topo);
        PredictRequest req;
        req.op = *op;
        const auto& gpus = topo.gpus();
        req.ranks = {gpus.begin(), gpus.end()};
        req.bytes = *op == CollOp::allgather || *op == CollOp::reducescatter || *op == CollOp::alltoall
                        ? Bytes(bytes.count() / static_cast<int64_t>(gpus.size()) * static_cast<int64_t>(gpus.size()))
                        : bytes;
        const Timed t = timed(topo, routes, req);
        std::string flow = "-", ratio = "-";
        if (static_cast<int>(gpus.size()) <= flow_up_to && t.p.tier != ModelTier::flow) {
            req.model = ModelTier::flow;
            const Timed f = timed(topo, routes, req);
            flow = fmt::format("{:.2f}", f.p.time.us());
            ratio = fmt::format("{:.1f}", f.cpu / std::max(t.cpu, 1e-6));
        }
        fmt::print("{:>8} {:>10} {:<22} {:>6} {:>12.2f} {:>9.3f} {:>9.3f} {:>10.3g} {:>9.1f} {:>12} {:>8}\n",
                   gpus.size(), req.bytes.count(), fmt::format("{}/{}/{}", t.p.algo, to_string(t.p.proto), t.p.channels),
                   to_string(t.p.tier), t.p.time.us(), t.cpu, t.wall, static_cast<double>(t.p.events) / std::max(t.cpu, 1e-6),
                   peak_rss_mib(), flow, ratio);
        xs.push_back(std::log(static_cast<double>(gpus.size())));
        ys.push_back(std::log(std::max(t.cpu, 1e-6)));
    }
    if (xs.size() >= 2) {
        double mx = 0, my = 0;
        for (std::size_t i = 0; i < xs.size(); ++i) mx += xs[i], my += ys[i];
        mx /= static_cast<double>(xs.size());
        my /= static_cast<double>(xs.size());
        double sxy = 0, sxx = 0;
        for (std::size_t i = 0; i < xs.size(); ++i) sxy += (xs[i] - mx) * (ys[i] - my), sxx += (xs[i] - mx) * (xs[i] - mx);
        fmt::print("cost growth: CPU time ~ GPUs^{:.2f} over {} topologies\n", sxy / sxx, xs.size());
    }
    return 0;
}

}  // namespace
}  // namespace collsim::bench

int main(int argc, char** argv) {
    CLI::App app{"cost of one collective call as the GPU count grows (BENCHMARKS.md)"};
    std::vector<std::string> topologies;
    std::string op = "allreduce", size = "1G";
    int flow_up_to = 1024;
    app.add_option("topologies", topologies, "topology files, smallest first")->required();
    app.add_option("--op", op, "collective")->capture_default_str();
    app.add_option("--size", size, "bytes, as coll's --sizes")->capture_default_str();
    app.add_option("--flow-up-to", flow_up_to, "also run the chunk-level tier up to this many GPUs")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    try {
        return collsim::bench::run(topologies, op, size, flow_up_to);
    } catch (const std::exception& e) {
        fmt::print(stderr, "bench_scale: {}\n", e.what());
        return 2;
    }
}
