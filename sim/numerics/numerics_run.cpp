#include "sim/numerics/numerics_run.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
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


PairDifference compare_results(FloatFormat f, const std::vector<float>& a, const std::vector<float>& b) {
    PairDifference d;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::bit_cast<uint32_t>(a[i]) == std::bit_cast<uint32_t>(b[i])) continue;
        ++d.elements_differing;
        d.max_ulp = std::max(d.max_ulp, ulp_distance(f, a[i], b[i]));
        const double x = a[i], y = b[i], scale = std::max(std::fabs(x), std::fabs(y));
        const double rel = scale == 0 ? 0.0 : std::fabs(x - y) / scale;  // +0 and -0 differ in bits only
        d.max_rel_difference = std::max(d.max_rel_difference, std::isfinite(rel) ? rel : INFINITY);
    }
    return d;
}

// Names each configuration by what sets it apart: the algorithm, plus the
// rank count and topology when the configurations differ in them.
std::string label(const NumericsConfig& c, const std::vector<NumericsConfig>& all) {
    std::string out = c.algo;
    auto differ = [&all](auto field) {
        return std::any_of(all.begin(), all.end(), [&](const NumericsConfig& o) { return field(o) != field(all[0]); });
    };
    if (differ([](const NumericsConfig& o) { return o.ranks; })) out += fmt::format("@{}", c.ranks);
    if (differ([](const NumericsConfig& o) { return o.topology; }))
        out += ":" + (c.topology.empty() ? std::string("crossbar") : c.topology);
    return out;
}

// Every configuration sums the same contributions: as many as the least
// common multiple of the rank counts, so each rank gets a whole share.
int common_contributions(const std::vector<NumericsConfig>& configs) {
    using limits::kMaxNumericsContributions;
    int64_t m = 1;
    int largest = 0;
    for (const NumericsConfig& c : configs) {
        m = std::lcm(m, int64_t{c.ranks});
        largest = std::max(largest, c.ranks);
        if (m > std::max<int64_t>(kMaxNumericsContributions, largest))
            bad("--compare",
                fmt::format("rank counts whose least common multiple is at most {} (every element sums that many "
                            "contributions: the contribution limit)",
                            kMaxNumericsContributions),
                std::to_string(m));
    }
    return static_cast<int>(m);
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

namespace {
struct Setup {
    const AlgorithmInfo* algo;
    Schedule schedule;
};

Setup set_up(const NumericsRequest& req, const NumericsConfig& c, const Topology& topo) {
    const bool listed = !c.option.empty();
    const std::string algo_field = listed ? c.option : "--algo", ranks_field = listed ? c.option : "--ranks";
    if (c.ranks < 2) bad(ranks_field, "at least 2", std::to_string(c.ranks));
    if (static_cast<int>(topo.gpus().size()) < c.ranks)
        bad(ranks_field, fmt::format("at most the {} GPUs of {}", topo.gpus().size(), c.topology),
            std::to_string(c.ranks));
    const AlgorithmInfo* algo = find_algorithm(c.algo);
    if (!algo) bad(algo_field, algorithm_choices(), c.algo);
    if (!algo->supports(req.op))
        bad(algo_field, fmt::format("an algorithm that implements {}", to_string(req.op)), c.algo);
    const CommLayout comm = first_gpus(topo, c.ranks);
    if (auto why = algo->why_not(req.op, comm))
        bad(algo_field, fmt::format("an algorithm that can run here ({})", *why), c.algo);
    const int dtype_bytes = req.dtype == FloatFormat::fp32 ? 4 : 2;
    return {algo, algo->build(CollectiveCall{req.op, Bytes(req.elements * dtype_bytes), c.ranks, 1}, comm)};
}

NumericsResult run_config(const NumericsRequest& req, const NumericsConfig& c, const Topology& topo,
                          const InputData& inputs, int contributions) {
    const Setup setup = set_up(req, c, topo);
    const Accumulation acc{req.dtype, req.accum.value_or(req.dtype)};
    NumericsResult res;
    res.config = c;
    res.contributions_per_rank = contributions / c.ranks;
    std::vector<uint64_t> first_shapes;
    for (int run = 0; run < req.runs; ++run) {
        const CombineTree tree = combine_tree(setup.schedule, req.op,
                                              arrival_order(topo, setup.schedule, setup.algo->family, req.seed * 1000003 + run));
        // Identical trees give identical bits: evaluate only new orders.
        std::vector<uint64_t> shapes = tree.root_shapes();
        if (run == 0) {
            res.stats = evaluate_tree(tree, inputs, acc, req.elements, contributions);
            first_shapes = std::move(shapes);
            if (c.ranks <= 16 && tree.root[0][0] >= 0) res.example_order = tree.describe(tree.root[0][0]);
            continue;
        }
        if (shapes == first_shapes) continue;
        const ReductionStats other = evaluate_tree(tree, inputs, acc, req.elements, contributions);
        const PairDifference d = compare_results(req.dtype, res.stats.result, other.result);
        res.max_run_ulp = std::max(res.max_run_ulp, d.max_ulp);
        res.runs_differing += d.elements_differing > 0;
    }
    return res;
}
}  // namespace

NumericsReport run_numerics(const NumericsRequest& req) {
    if (req.op != CollOp::allreduce && req.op != CollOp::reducescatter)
        bad("--op", "allreduce or reducescatter", std::string(to_string(req.op)));
    if (req.elements < 1) bad("--elements", "at least 1", std::to_string(req.elements));
    // The reduction holds every element's exact sum and result per rank
    // order in memory, some tens of bytes each: 2^27 elements is a few GiB.
    if (req.elements > limits::kMaxNumericsElements)
        bad("--elements", fmt::format("at most {} (the element limit: what collsim numerics holds in memory)", limits::kMaxNumericsElements),
            std::to_string(req.elements));
    for (const NumericsConfig& c : req.configs)
        if (c.ranks > limits::kMaxNumericsRanks)
            bad(c.option.empty() ? "--ranks" : c.option,
                fmt::format("at most {} ranks (the numerics rank limit: the contributions one element sums)", limits::kMaxNumericsRanks),
                std::to_string(c.ranks));
    if (req.runs < 1) bad("--runs", "at least 1", std::to_string(req.runs));
    if (req.configs.empty()) bad("--compare", "at least one configuration", "");
    NumericsReport report{req, common_contributions(req.configs), {}, {}};
    const InputData inputs(req.dist, req.seed, req.dtype);
    for (const NumericsConfig& c : req.configs) {
        // Loaded per configuration: loading is milliseconds next to the reduction.
        const Topology topo = c.topology.empty() ? crossbar(c.ranks) : load_topology(c.topology);
        report.results.push_back(run_config(req, c, topo, inputs, report.contributions));
        report.results.back().label = label(c, req.configs);
    }
    for (std::size_t i = 0; i < report.results.size(); ++i)
        for (std::size_t j = i + 1; j < report.results.size(); ++j) {
            PairDifference d = compare_results(req.dtype, report.results[i].stats.result, report.results[j].stats.result);
            d.a = report.results[i].label;
            d.b = report.results[j].label;
            report.pairs.push_back(std::move(d));
        }
    return report;
}

}  // namespace collsim
