#include "sim/numerics/numerics_run.hpp"

#include <bit>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "sim/core/error.hpp"
#include "sim/core/random.hpp"
#include "sim/exec/executor.hpp"
#include "sim/exec/interpret.hpp"
#include "sim/hw/topology_loader.hpp"

namespace collsim {

namespace {
using namespace literals;

[[noreturn]] void bad(const std::string& field, std::string expected, const std::string& found) {
    throw InputError(SourceLocation{}, field, std::move(expected), "'" + found + "'");
}

// n GPUs on one crossbar: the timing only has to order arrivals, so any
// uniform fabric will do when the user names none.
Topology crossbar(int n) {
    std::vector<Device> devices;
    std::vector<Link> links;
    for (int i = 0; i < n; ++i) {
        Device g;
        g.name = fmt::format("gpu{}", i);
        g.memory_bandwidth = Bandwidth::bytes_per_s(3'350'000'000'000);
        devices.push_back(g);
    }
    Device sw;
    sw.name = "switch";
    sw.kind = DeviceKind::nvswitch;
    devices.push_back(sw);
    for (int i = 0; i < n; ++i) {
        Link l;
        l.a = static_cast<DeviceId>(i);
        l.b = static_cast<DeviceId>(n);
        l.bandwidth = Bandwidth::bytes_per_s(450'000'000'000);
        l.latency = 100_ns;
        links.push_back(l);
    }
    return Topology("crossbar", "", std::move(devices), std::move(links));
}


int64_t max_ulp_between(FloatFormat f, const std::vector<float>& a, const std::vector<float>& b, int64_t* differing) {
    int64_t worst = 0, diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::bit_cast<uint32_t>(a[i]) == std::bit_cast<uint32_t>(b[i])) continue;
        ++diff;
        worst = std::max(worst, ulp_distance(f, a[i], b[i]));
    }
    if (differing) *differing = diff;
    return worst;
}
}  // namespace

// The jitter stands for what real kernels see from scheduling, clocks and
// contention; its size, up to one protocol step latency, is a modelling choice.
std::vector<StepId> arrival_order(const Topology& topo, const Schedule& s, NcclFamily family, uint64_t jitter_seed) {
    Simulator sim;
    Network net(sim, network_resources(topo));
    Routes routes(topo);
    std::vector<DeviceId> gpus(topo.gpus().begin(), topo.gpus().begin() + s.ranks);
    const Protocol proto = *nccl_protocol(family, ProtoKind::simple);
    Executor exec(sim, net, routes, topo, gpus, proto);
    std::vector<StepId> order;
    exec.on_step_finished([&order](StepId id) { order.push_back(id); });
    const int64_t span = proto.step_latency(LinkClass::nvlink).ps();
    exec.delay_steps([jitter_seed, span](StepId id) {
        return Time::from_ps(static_cast<int64_t>(mix64(jitter_seed ^ (id * 0x9e3779b97f4a7c15ULL)) %
                                                  static_cast<uint64_t>(span + 1)));
    });
    exec.start(s, [] {});
    sim.run();
    return order;
}

NumericsReport run_numerics(const NumericsRequest& req) {
    if (req.op != CollOp::allreduce && req.op != CollOp::reducescatter)
        bad("--op", "allreduce or reducescatter", std::string(to_string(req.op)));
    if (req.ranks < 2) bad("--ranks", "at least 2", std::to_string(req.ranks));
    if (req.elements < 1) bad("--elements", "at least 1", std::to_string(req.elements));
    if (req.runs < 1) bad("--runs", "at least 1", std::to_string(req.runs));
    const Topology topo = req.topology.empty() ? crossbar(req.ranks) : load_topology(req.topology);
    if (static_cast<int>(topo.gpus().size()) < req.ranks)
        bad("--ranks", fmt::format("at most the {} GPUs of {}", topo.gpus().size(), req.topology),
            std::to_string(req.ranks));
    const int dtype_bytes = req.dtype == FloatFormat::fp32 ? 4 : 2;
    const Accumulation acc{req.dtype, req.accum.value_or(req.dtype)};
    const InputData inputs(req.dist, req.seed, req.dtype);

    NumericsReport report{req, {}, {}};
    for (const std::string& name : req.algos) {
        const AlgorithmInfo* algo = find_algorithm(name);
        if (!algo) bad("--algo", algorithm_choices(), name);
        if (!algo->supports(req.op))
            bad("--algo", fmt::format("an algorithm that implements {}", to_string(req.op)), name);
        const Schedule s = algo->build(CollectiveCall{req.op, Bytes(req.elements * dtype_bytes), req.ranks, 1});
        NumericsResult res;
        res.algo = name;
        std::vector<uint64_t> first_shapes;
        for (int run = 0; run < req.runs; ++run) {
            const CombineTree tree =
                combine_tree(s, req.op, arrival_order(topo, s, algo->family, req.seed * 1000003 + run));
            // Identical trees give identical bits: evaluate only new orders.
            std::vector<uint64_t> shapes = tree.root_shapes();
            if (run == 0) {
                res.stats = evaluate_tree(tree, inputs, acc, req.elements);
                first_shapes = std::move(shapes);
                if (req.ranks <= 16 && tree.root[0][0] >= 0) res.example_order = tree.describe(tree.root[0][0]);
                continue;
            }
            if (shapes == first_shapes) continue;
            const ReductionStats other = evaluate_tree(tree, inputs, acc, req.elements);
            int64_t differing = 0;
            res.max_run_ulp = std::max(res.max_run_ulp, max_ulp_between(req.dtype, res.stats.result, other.result, &differing));
            res.runs_differing += differing > 0;
        }
        report.results.push_back(std::move(res));
    }
    for (std::size_t i = 0; i < report.results.size(); ++i)
        for (std::size_t j = i + 1; j < report.results.size(); ++j) {
            PairDifference d{report.results[i].algo, report.results[j].algo, 0, 0};
            d.max_ulp = max_ulp_between(req.dtype, report.results[i].stats.result, report.results[j].stats.result,
                                        &d.elements_differing);
            report.pairs.push_back(d);
        }
    return report;
}

}  // namespace collsim
