#include "sim/cli/coll_command.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "sim/cli/options.hpp"
#include "sim/cli/size_list.hpp"
#include "sim/core/error.hpp"
#include "sim/faults/link_faults.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/model/predict.hpp"
#include "sim/report/coll_report.hpp"
#include "sim/validate/calibration_profile.hpp"

namespace collsim {

CLI::App* add_coll_command(CLI::App& app, CollOptions& o) {
    CLI::App* c = app.add_subcommand("coll", "one collective over a size sweep, as an nccl-tests table");
    c->add_option("--topology,-t", o.topology, "topology YAML file")->required();
    c->add_option("--op", o.op, "collective operation")->capture_default_str();
    c->add_option("--algo", o.algo, "algorithm, or auto (as NCCL would choose)")->capture_default_str();
    c->add_option("--proto", o.proto, "NCCL protocol: ll, ll128, simple, or auto")->capture_default_str();
    c->add_option("--ranks,-n", o.ranks, "number of ranks (the first N GPUs); default all");
    c->add_option("--sizes", o.sizes, "MIN:MAX (x2 steps) or a list 8,1K,1M")->capture_default_str();
    c->add_option("--dtype", o.dtype, "element type")->capture_default_str();
    c->add_option("--channels,-c", o.channels, "channels (rings); default: chosen from the topology");
    c->add_option("--calibration", o.calibration, "calibration profile (from collsim calibrate); default: specs");
    c->add_option("--routing", o.routing, "equal-cost path choice: ecmp, single or adaptive")->capture_default_str();
    c->add_option("--format", o.format, "table, json or csv")->capture_default_str();
    c->add_option("--seed", o.seed, "random seed (runs are deterministic for a seed)")->capture_default_str();
    c->add_option("--faults", o.faults, "fault scenario YAML (link down, degrade, flap)");
    c->add_option("--timeout", o.timeout, "watchdog: report a hang when a collective runs longer, e.g. 10min");
    c->add_flag("--fail-on-hang", o.fail_on_hang, "exit 1 when a collective hangs");
    return c;
}

int run_coll(const CollOptions& o) {
    if (o.format != "table" && o.format != "json" && o.format != "csv")
        bad_option("--format", "one of table, json, csv", o.format);
    auto op = coll_op_from(o.op);
    if (!op) bad_option("--op", std::string(coll_op_choices()), o.op);
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
    Routes routes(topo);
    PredictRequest req{*op, Bytes{}, {topo.gpus().begin(), topo.gpus().begin() + n}, o.algo, o.proto, o.channels,
                       {}, std::nullopt, RoutingPolicy(*routing, o.seed)};
    if (!o.faults.empty()) req.setup = link_fault_setup(load_fault_plan(o.faults, topo), topo);
    if (!o.timeout.empty()) {
        try {
            req.timeout = parse_time(o.timeout);
        } catch (const std::invalid_argument& e) {
            bad_option("--timeout", e.what(), o.timeout);
        }
        if (*req.timeout <= Time{}) bad_option("--timeout", "a positive time", o.timeout);
    }
    bool hung = false;

    CollReport report{std::string(to_string(*op)), o.algo, o.proto, topo.name(), o.topology, n, {}};
    const Calibration calibration = o.calibration.empty() ? Calibration{} : load_calibration(o.calibration);
    for (Bytes requested : sizes) {
        // Like nccl-tests: the count is whole elements, the size follows it.
        const int64_t count = requested.count() / dtype->size;
        req.bytes = Bytes(count * dtype->size);
        const Prediction p = predict_collective(topo, routes, req, calibration);
        CollRow row = make_row(req.bytes, count, std::string(dtype->name), p.time, busbw_factor(*op, n));
        row.algo = p.algo;
        row.proto = std::string(to_string(p.proto));
        row.channels = p.channels;
        if (p.hang) {
            hung = true;
            row.algbw_GBps = row.busbw_GBps = 0;
            HangInfo h{p.hang->at, p.hang->timed_out, p.hang->steps_done, p.hang->steps_total, p.hang->waiting_ranks, {}};
            for (ChannelId c : p.hang->dead_channels)
                h.dead_links.push_back(topo.device(topo.channel_source(c)).name + "->" + topo.device(topo.channel_target(c)).name);
            row.hang = std::move(h);
        }
        report.rows.push_back(std::move(row));
    }
    const std::string out = o.format == "json" ? render_json(report)
                            : o.format == "csv" ? render_csv(report)
                                                : render_table(report);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return hung && o.fail_on_hang ? 1 : 0;
}

}  // namespace collsim
