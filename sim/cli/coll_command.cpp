#include "sim/cli/coll_command.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "sim/cli/size_list.hpp"
#include "sim/core/error.hpp"
#include "sim/exec/simulate.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/report/coll_report.hpp"

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
}  // namespace

CLI::App* add_coll_command(CLI::App& app, CollOptions& o) {
    CLI::App* c = app.add_subcommand("coll", "one collective over a size sweep, as an nccl-tests table");
    c->add_option("--topology,-t", o.topology, "topology YAML file")->required();
    c->add_option("--op", o.op, "collective operation")->capture_default_str();
    c->add_option("--algo", o.algo, "algorithm")->capture_default_str();
    c->add_option("--proto", o.proto, "NCCL protocol")->capture_default_str();
    c->add_option("--ranks,-n", o.ranks, "number of ranks (the first N GPUs); default all");
    c->add_option("--sizes", o.sizes, "MIN:MAX (x2 steps) or a list 8,1K,1M")->capture_default_str();
    c->add_option("--dtype", o.dtype, "element type")->capture_default_str();
    c->add_option("--channels,-c", o.channels, "channels (rings); default: one per usable link");
    c->add_option("--routing", o.routing, "equal-cost path choice: ecmp, single or adaptive")->capture_default_str();
    c->add_option("--format", o.format, "table, json or csv")->capture_default_str();
    c->add_option("--seed", o.seed, "random seed (runs are deterministic for a seed)")->capture_default_str();
    return c;
}

int run_coll(const CollOptions& o) {
    if (o.format != "table" && o.format != "json" && o.format != "csv")
        bad_option("--format", "one of table, json, csv", o.format);
    auto op = coll_op_from(o.op);
    if (!op) bad_option("--op", std::string(coll_op_choices()), o.op);
    const AlgorithmInfo* algo = find_algorithm(o.algo);
    if (!algo) bad_option("--algo", algorithm_choices(), o.algo);
    if (!algo->supports(*op))
        bad_option("--op", fmt::format("an operation that algorithm '{}' implements", algo->name), o.op);
    auto proto = ring_protocol(o.proto);
    if (!proto) bad_option("--proto", std::string(ring_protocol_choices()), o.proto);
    auto dtype = dtype_from(o.dtype);
    if (!dtype) bad_option("--dtype", std::string(dtype_choices()), o.dtype);
    auto routing = routing_mode_from(o.routing);
    if (!routing) bad_option("--routing", std::string(routing_mode_choices()), o.routing);
    std::vector<Bytes> sizes = parse_size_list(o.sizes, "--sizes");
    if (o.channels < 0 || o.channels > 64) bad_option("--channels", "0 (automatic) to 64", std::to_string(o.channels));

    const Topology topo = load_topology(o.topology);
    const int gpu_count = static_cast<int>(topo.gpus().size());
    const int n = o.ranks == 0 ? gpu_count : o.ranks;
    if (n < 1 || n > gpu_count)
        bad_option("--ranks", fmt::format("1 to {} (the GPUs in {})", gpu_count, o.topology), std::to_string(o.ranks));
    std::vector<DeviceId> rank_gpus(topo.gpus().begin(), topo.gpus().begin() + n);
    Routes routes(topo);
    const int channels = o.channels > 0 ? o.channels : default_channels(routes, rank_gpus);

    CollReport report{std::string(to_string(*op)), std::string(algo->name), std::string(proto->name), topo.name(),
                      o.topology, n, channels, {}};
    for (Bytes requested : sizes) {
        // Like nccl-tests: the count is whole elements, the size follows it.
        const int64_t count = requested.count() / dtype->size;
        const Bytes size(count * dtype->size);
        const Schedule schedule = algo->build(CollectiveCall{*op, size, n, channels});
        const ScheduleTiming t = simulate_schedule(topo, routes, rank_gpus, schedule, *proto, RoutingPolicy(*routing, o.seed));
        report.rows.push_back(make_row(size, count, std::string(dtype->name), t.time, busbw_factor(*op, n)));
    }
    const std::string out = o.format == "json" ? render_json(report)
                            : o.format == "csv" ? render_csv(report)
                                                : render_table(report);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace collsim
