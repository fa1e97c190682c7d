#include "sim/cli/coll_command.hpp"

#include <cstdio>
#include <functional>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/msccl/msccl_algorithm.hpp"
#include "sim/cli/gpu_list.hpp"
#include "sim/cli/size_list.hpp"
#include "sim/core/error.hpp"
#include "sim/exec/simulate.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/report/coll_report.hpp"
#include "sim/report/contention.hpp"

namespace collsim {

namespace {
[[noreturn]] void bad_option(const std::string& option, std::string expected, const std::string& found) {
    throw InputError(SourceLocation{}, option, std::move(expected), "'" + found + "'");
}

// Enough channels that every distinct link a GPU can use toward its ring
// neighbour carries one, as NCCL's graph search spreads channels over links.
int default_channels(Routes& routes, const std::vector<DeviceId>& ranks) {
    std::size_t most = 1;
    for (std::size_t i = 0; ranks.size() > 1 && i < ranks.size(); ++i)
        most = std::max(most, routes.first_hop_links(ranks[i], ranks[(i + 1) % ranks.size()]));
    return static_cast<int>(std::min<std::size_t>(most, 32));
}

bool has_root(CollOp op) { return op == CollOp::broadcast || op == CollOp::reduce; }
bool reduces(CollOp op) { return op == CollOp::allreduce || op == CollOp::reducescatter || op == CollOp::reduce; }
// nccl-tests sizes AllGather, ReduceScatter and AllToAll as n equal blocks.
bool in_blocks(CollOp op) {
    return op == CollOp::allgather || op == CollOp::reducescatter || op == CollOp::alltoall;
}

Communicator communicator_from(const Topology& topo, const CollOptions& o) {
    if (!o.gpus.empty()) return make_communicator(topo, parse_gpu_list(topo, o.gpus, "--gpus"));
    const int gpu_count = static_cast<int>(topo.gpus().size());
    const int n = o.ranks == 0 ? gpu_count : o.ranks;
    if (n < 1 || n > gpu_count)
        bad_option("--ranks", fmt::format("1 to {} (the GPUs in {})", gpu_count, o.topology), std::to_string(o.ranks));
    return first_gpus(topo, n);
}
}  // namespace

CLI::App* add_coll_command(CLI::App& app, CollOptions& o) {
    CLI::App* c = app.add_subcommand("coll", "one collective over a size sweep, as an nccl-tests table");
    c->add_option("--topology,-t", o.topology, "topology YAML file")->required();
    c->add_option("--op", o.op, "collective operation (default allreduce, or the --algo-file's)");
    c->add_option("--algo", o.algo, "algorithm; default: the first listed that implements --op (ring; alltoall; sendrecv)");
    c->add_option("--algo-file", o.algo_file, "an MSCCL XML algorithm to run instead of --algo")->excludes("--algo");
    c->add_option("--proto", o.proto, "NCCL protocol (default simple; with --algo-file the file's)");
    auto* ranks = c->add_option("--ranks,-n", o.ranks, "number of ranks (the first N GPUs); default all");
    c->add_option("--gpus", o.gpus, "the communicator's GPUs in rank order: indices or names, e.g. 0,2,4,6 or 0-3")
        ->excludes(ranks);
    c->add_option("--root", o.root, "root rank of Broadcast and Reduce (default 0)");
    c->add_option("--sizes", o.sizes, "MIN:MAX (x2 steps) or a list 8,1K,1M")->capture_default_str();
    c->add_option("--dtype", o.dtype, "element type")->capture_default_str();
    c->add_option("--channels,-c", o.channels, "channels (rings); default: one per usable link");
    c->add_option("--model", o.model, "flow (simulate the network) or analytical (closed form)")->capture_default_str();
    c->add_flag("--explain", o.explain, "per size: flow and closed-form times, their terms, and why they differ");
    c->add_option("--format", o.format, "table, json or csv")->capture_default_str();
    c->add_option("--seed", o.seed, "random seed (runs are deterministic for a seed)")->capture_default_str();
    return c;
}

namespace {

// What is run: a registered algorithm, or an MSCCL file's schedule.
struct Runnable {
    std::string name;
    NcclFamily family = NcclFamily::ring;
    std::function<Schedule(const CollectiveCall&)> build;
    std::function<Estimate(const CollectiveCall&, CostModel&)> estimate;  // empty: no closed form
};

Runnable registered(const CollOptions& o, CollOp op, const Communicator& comm) {
    const AlgorithmInfo* algo = o.algo.empty() ? nullptr : find_algorithm(o.algo);
    if (o.algo.empty())
        for (const AlgorithmInfo& a : algorithm_registry())
            if (!algo && a.supports(op)) algo = &a;
    if (!algo) bad_option("--algo", algorithm_choices(), o.algo);
    if (!algo->supports(op))
        bad_option("--op", fmt::format("an operation that algorithm '{}' implements", algo->name), o.op);
    if (auto why = algo->why_not(op, comm))
        bad_option("--algo", fmt::format("an algorithm that can run here ({})", *why), o.algo);
    return Runnable{std::string(algo->name), algo->family,
                    [algo, &comm](const CollectiveCall& call) { return algo->build(call, comm); }, algo->estimate};
}

Runnable from_file(const CollOptions& o, const msccl::MscclAlgorithm& file, CollOp op, const Communicator& comm) {
    if (file.op != op)
        bad_option("--op", fmt::format("{}, the operation of {}", to_string(file.op), o.algo_file), o.op);
    if (file.ngpus != comm.size())
        bad_option("--algo-file", fmt::format("an algorithm for the communicator's {} ranks", comm.size()),
                   fmt::format("{}, written for {} GPUs", o.algo_file, file.ngpus));
    if (o.model == "analytical" || o.explain)
        bad_option("--model", "flow: an MSCCL file has no closed form", o.explain ? "--explain" : o.model);
    // MSCCL runs its own kernel; its steps pay the ring's per-step latencies.
    return Runnable{file.name.empty() ? "msccl" : file.name, NcclFamily::ring,
                    [&file](const CollectiveCall& call) { return msccl::msccl_schedule(file, call.bytes); }, {}};
}
}  // namespace

int run_coll(const CollOptions& o) {
    if (o.format != "table" && o.format != "json" && o.format != "csv")
        bad_option("--format", "one of table, json, csv", o.format);
    if (o.model != "flow" && o.model != "analytical") bad_option("--model", "one of flow, analytical", o.model);
    std::optional<msccl::MscclAlgorithm> file;
    if (!o.algo_file.empty()) file = msccl::load_msccl(o.algo_file);
    const std::string op_text = !o.op.empty() ? o.op : file ? std::string(to_string(file->op)) : "allreduce";
    auto op = coll_op_from(op_text);
    if (!op) bad_option("--op", std::string(coll_op_choices()), op_text);
    auto dtype = dtype_from(o.dtype);
    if (!dtype) bad_option("--dtype", std::string(dtype_choices()), o.dtype);
    std::vector<Bytes> sizes = parse_size_list(o.sizes, "--sizes");
    if (o.channels < 0 || o.channels > 64) bad_option("--channels", "0 (automatic) to 64", std::to_string(o.channels));
    if (o.root != -1 && !has_root(*op))
        bad_option("--root", "no root: only broadcast and reduce have one", std::to_string(o.root));

    const Topology topo = load_topology(o.topology);
    const Communicator comm = communicator_from(topo, o);
    const int n = comm.size();
    const int root = has_root(*op) ? std::max(o.root, 0) : -1;
    if (has_root(*op) && root >= n) bad_option("--root", fmt::format("a rank from 0 to {}", n - 1), std::to_string(o.root));
    const Runnable algo = file ? from_file(o, *file, *op, comm) : registered(o, *op, comm);
    const std::string proto_text = !o.proto.empty() ? o.proto : file ? std::string(to_string(file->proto)) : "simple";
    auto proto_kind = proto_kind_from(proto_text);
    if (!proto_kind) bad_option("--proto", std::string(proto_choices()), proto_text);
    auto proto = nccl_protocol(algo.family, *proto_kind);
    if (!proto) bad_option("--proto", fmt::format("a protocol that NCCL runs with algorithm '{}'", algo.name), proto_text);
    Routes routes(topo);
    const int channels = file ? file->nchannels : o.channels > 0 ? o.channels : default_channels(routes, comm.gpus);

    CollReport report{std::string(to_string(*op)), algo.name, std::string(proto->name), topo.name(),
                      o.topology, o.model, n, channels, {}};
    for (Bytes requested : sizes) {
        // Like nccl-tests: whole elements, and for block operations a multiple of n.
        int64_t count = requested.count() / dtype->size;
        if (in_blocks(*op)) count = count / n * n;
        const Bytes size(count * dtype->size);
        const CollectiveCall call{*op, size, n, channels, std::max(root, 0)};
        Estimate closed;
        std::optional<ScheduleTiming> flow;
        if (o.model == "analytical" || o.explain) {
            CostModel model(comm, routes, *proto);
            closed = algo.estimate(call, model);
        }
        if (o.model == "flow" || o.explain)
            flow = simulate_schedule(topo, routes, comm.gpus, algo.build(call), *proto, o.explain);
        const Time t = o.model == "flow" ? flow->time : closed.total();
        CollRow row = make_row(size, count, std::string(dtype->name), t, busbw_factor(*op, n));
        row.redop = reduces(*op) ? "sum" : "none";
        row.root = root;
        if (o.explain)
            row.explain = CollExplain{flow->time, closed.total(), closed.latency, closed.bandwidth,
                                      describe_difference(topo, flow->time, closed.total(), flow->peak_link_load)};
        report.rows.push_back(std::move(row));
    }
    const std::string out = o.format == "json" ? render_json(report)
                            : o.format == "csv" ? render_csv(report)
                                                : render_table(report);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace collsim
