#include "sim/cli/coll_command.hpp"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/msccl/msccl_algorithm.hpp"
#include "sim/cli/gpu_list.hpp"
#include "sim/cli/nccl_environment.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/provenance.hpp"
#include "sim/cli/size_list.hpp"
#include "sim/cli/tuner_spans.hpp"
#include "sim/core/error.hpp"
#include "sim/exec/monitored_setup.hpp"
#include "sim/faults/link_faults.hpp"
#include "sim/cli/topology_input.hpp"
#include "sim/model/predict.hpp"
#include "sim/report/coll_report.hpp"
#include "sim/report/contention.hpp"
#include "sim/report/replay_report.hpp"
#include "sim/validate/calibration_profile.hpp"

namespace collsim {

namespace {
bool has_root(CollOp op) { return op == CollOp::broadcast || op == CollOp::reduce; }
bool reduces(CollOp op) { return op == CollOp::allreduce || op == CollOp::reducescatter || op == CollOp::reduce; }
// nccl-tests sizes AllGather, ReduceScatter and AllToAll as n equal blocks.
bool in_blocks(CollOp op) { return op == CollOp::allgather || op == CollOp::reducescatter || op == CollOp::alltoall; }

std::vector<DeviceId> communicator_gpus(const Topology& topo, const CollOptions& o) {
    if (o.gpus_given) return parse_gpu_list(topo, o.gpus, "--gpus");
    const int gpu_count = static_cast<int>(topo.gpus().size());
    const int n = o.ranks_given ? o.ranks : gpu_count;
    if (n < 1 || n > gpu_count)
        bad_option("--ranks", fmt::format("1 to {} (the GPUs in {})", gpu_count, o.topology), std::to_string(o.ranks));
    return {topo.gpus().begin(), topo.gpus().begin() + n};
}

HangInfo hang_info(const Topology& topo, const HangReport& h) {
    HangInfo info{h.at, h.timed_out, h.steps_done, h.steps_total, h.waiting_ranks, {}};
    for (ChannelId c : h.dead_channels)
        info.dead_links.push_back(topo.device(topo.channel_source(c)).name + "->" + topo.device(topo.channel_target(c)).name);
    return info;
}

// The `top` link directions that carried the most bytes (ties by channel id),
// averaged over the collective's simulated time `span`.
std::vector<CollLink> busiest_coll_links(const Topology& topo, std::vector<LinkTraffic> traffic, Time span,
                                         std::size_t top) {
    const auto busier = [](const LinkTraffic& a, const LinkTraffic& b) {
        return a.bytes != b.bytes ? a.bytes > b.bytes : a.channel < b.channel;
    };
    const std::size_t n = std::min(top, traffic.size());
    std::partial_sort(traffic.begin(), traffic.begin() + static_cast<std::ptrdiff_t>(n), traffic.end(), busier);
    const double span_s = static_cast<double>(span.ps()) / 1e12;
    std::vector<CollLink> out;
    out.reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
        const LinkTraffic& t = traffic[k];
        CollLink l{link_name(topo, t.channel), t.bytes, 0, 0, t.peak_flows, between_network_switches(topo, t.channel)};
        if (span_s > 0) l.average_GBps = static_cast<double>(t.bytes.count()) / span_s / 1e9;
        if (t.capacity.bps() > 0) l.utilisation = l.average_GBps / t.capacity.gbps();
        out.push_back(std::move(l));
    }
    return out;
}
}  // namespace

CLI::App* add_coll_command(CLI::App& app, CollOptions& o) {
    CLI::App* c = app.add_subcommand("coll", "one collective over a size sweep, as an nccl-tests table");
    c->add_option("--topology,-t", o.topology, "topology file: YAML, or NCCL topology XML (imported on the fly)")->required();
    add_set_option(c, o.settings);
    accept_nccl_collective_names(c->add_option(
        "--op", o.op,
        fmt::format("collective operation: {} (or all_reduce, reduce_scatter, ... as nccl-tests' binaries); default "
                    "allreduce, or the --algo-file's",
                    coll_op_choices())));
    auto* algo = c->add_option("--algo", o.algo,
                               fmt::format("algorithm: {}, or auto (as NCCL would choose); NCCL's names too, in any "
                                           "case (Ring, Tree, NVLS, NVLSTree, CollnetDirect)",
                                           algorithm_choices()))
                     ->each([&o](const std::string&) { o.algo_given = true; })
                     ->capture_default_str();
    accept_nccl_algorithm_names(algo);
    c->add_option("--algo-file", o.algo_file, "an MSCCL XML algorithm to run instead of --algo")->excludes(algo);
    accept_nccl_protocol_names(
        c->add_option("--proto", o.proto, "NCCL protocol: ll, ll128, simple, or auto (LL, LL128, Simple too)")
            ->each([&o](const std::string&) { o.proto_given = true; })
            ->capture_default_str());
    add_algorithm_switches(c, o.disable, o.enable);
    for (const char* name : {"--disable", "--enable"})
        c->get_option(name)->each([&o](const std::string&) { o.switches_given = true; });
    auto* ranks = c->add_option("--ranks", o.ranks, "number of ranks (the first N GPUs); default all")
                      ->each([&o](const std::string&) { o.ranks_given = true; });
    c->add_option("--gpus", o.gpus, "the communicator's GPUs in rank order: indices or names, e.g. 0,2,4,6 or 0-3")
        ->each([&o](const std::string&) { o.gpus_given = true; })
        ->excludes(ranks);
    c->add_option("--root,-r", o.root, "root rank of Broadcast and Reduce (default 0)")
        ->each([&o](const std::string&) { o.root_given = true; });
    c->add_option("--sizes", o.sizes, "MIN:MAX (x2 steps), MIN:MAX:FACTOR or a list 8,1K,1M (or nccl-tests' -b/-e/-f/-i)")
        ->each([&o](const std::string&) { o.sizes_given = true; })
        ->capture_default_str();
    c->add_option("--dtype,-d,--datatype", o.dtype, fmt::format("element type: {} (bf16, fp16, fp32 too)", dtype_choices()))
        ->capture_default_str();
    c->add_option("--channels", o.channels, "channels (rings); default: chosen from the topology")
        ->each([&o](const std::string&) { o.channels_given = true; });
    add_gpus_per_thread_option(c, o.gpus_per_thread, "--gpus-per-thread,-g,--ngpus");
    c->add_option("--model", o.model,
                  "auto, flow (every chunk a flow), fluid (pipelines as long-lived flows) or analytical (closed form)")
        ->capture_default_str();
    c->add_flag("--explain", o.explain, "per size: flow and closed-form times, their terms, and why they differ");
    c->add_option("--links", o.links, "busiest link directions reported per simulated size (0: none)")
        ->capture_default_str();
    c->add_option("--calibration", o.calibration, "calibration profile (from collsim calibrate); default: specs");
    c->add_option("--routing", o.routing, "equal-cost path choice: ecmp, single or adaptive")->capture_default_str();
    c->add_option("--format", o.format, "table, json or csv")->capture_default_str();
    c->add_option("--seed", o.seed, "random seed (runs are deterministic for a seed)")->capture_default_str();
    c->add_option("--faults", o.faults, "fault scenario YAML (link down, degrade, flap)");
    c->add_option("--timeout", o.timeout, "watchdog: report a hang when a collective runs longer, e.g. 10min");
    c->add_flag("--fail-on-hang", o.fail_on_hang, "exit 1 when a collective hangs");
    add_progress_options(c, o.progress);
    add_nccl_tests_flags(c, o.nccl_tests);
    return c;
}

CollRun simulate_coll(const CollOptions& o, RunMonitor* hook) {
    const std::optional<ModelTier> tier = model_tier_from(o.model);
    if (!tier) bad_option("--model", std::string(model_tier_choices()), o.model);
    std::optional<msccl::MscclAlgorithm> file;
    if (!o.algo_file.empty()) file = msccl::load_msccl(o.algo_file);
    const std::string op_text = !o.op.empty() ? o.op : file ? std::string(to_string(file->op)) : "allreduce";
    auto op = coll_op_from(op_text);
    if (!op) bad_option("--op", std::string(coll_op_choices()), op_text);
    if (file && file->op != *op)
        bad_option("--op", fmt::format("{}, the operation of {}", to_string(file->op), o.algo_file), op_text);
    auto dtype = dtype_from(o.dtype);
    if (!dtype) bad_option("--dtype", std::string(dtype_choices()), o.dtype);
    auto routing = routing_mode_from(o.routing);
    if (!routing) bad_option("--routing", std::string(routing_mode_choices()), o.routing);
    if (o.sizes_given && o.nccl_tests.sweep_given())
        bad_option("--sizes", "either --sizes or nccl-tests' -b/-e/-f/-i", o.sizes);
    std::vector<Bytes> sizes =
        o.nccl_tests.sweep_given() ? nccl_tests_sizes(o.nccl_tests) : parse_size_list(o.sizes, "--sizes");
    const std::string redop = reduces(*op) ? nccl_tests_redop(o.nccl_tests) : "none";
    std::vector<std::string> notes = nccl_tests_notes(o.nccl_tests, reduces(*op));
    AlgorithmChoice choice{o.algo, o.proto, o.disable, o.enable, {}, o.algo_given, o.proto_given, o.switches_given};
    if (!file && o.follow_environment)
        for (std::string& n : follow_nccl_environment(*op, choice)) notes.push_back(std::move(n));
    for (const std::string& n : notes) fmt::print(stderr, "collsim coll: note: {}\n", n);
    if (o.links < 0) bad_option("--links", "0 or more", std::to_string(o.links));
    if (o.channels_given && (o.channels < 1 || o.channels > 64))
        bad_option("--channels", "1 to 64 (leave it out for NCCL's choice)", std::to_string(o.channels));
    if (o.root_given && !has_root(*op))
        bad_option("--root", "no root: only broadcast and reduce have one", std::to_string(o.root));

    const Topology topo = load_cli_topology(o.topology, o.settings);
    const std::vector<DeviceId> gpus = communicator_gpus(topo, o);
    const int n = static_cast<int>(gpus.size());
    const int root = has_root(*op) ? std::max(o.root, 0) : -1;
    if (has_root(*op) && (root >= n || (o.root_given && o.root < 0))) bad_option("--root", fmt::format("a rank from 0 to {}", n - 1), std::to_string(o.root));
    if (file && file->ngpus != n)
        bad_option("--algo-file", fmt::format("an algorithm for the communicator's {} ranks", n),
                   fmt::format("{}, written for {} GPUs", o.algo_file, file->ngpus));
    Routes routes(topo);
    PredictRequest req{*op, Bytes{}, gpus, choice.algo, choice.proto, o.channels, {}, std::nullopt,
                       RoutingPolicy(*routing, o.seed)};
    req.root = std::max(root, 0);
    check_algorithm_switches(choice.disabled, choice.enabled);
    for (const std::string& name : choice.disabled)
        if (name == choice.algo) bad_option("--disable", "algorithms other than the one --algo forces", name);
    req.disabled = choice.disabled;
    req.enabled = choice.enabled;
    req.protos = choice.protos;
    req.model = *tier;
    req.explain = o.explain;
    // Link traffic costs a little per send: collected only when reported.
    // --explain names the links behind a difference from the closed form.
    req.link_traffic = (o.links > 0 || o.explain) && req.model != ModelTier::analytical;
    req.msccl = file ? &*file : nullptr;
    if (!o.faults.empty()) req.setup = link_fault_setup(load_fault_plan(o.faults, topo));
    req.network_alone = o.faults.empty();
    req.timeout = parse_timeout(o.timeout);
    req.setup = with_monitor(std::move(req.setup), hook);
    // A sweep of growing sizes costs more with each size (up to the lumping
    // of long schedules, at least as much): the ETA then assumes so.
    if (hook)
        hook->begin_stage("sizes", sizes.size(),
                          std::is_sorted(sizes.begin(), sizes.end()) ? RunMonitor::UnitCost::rising
                                                                     : RunMonitor::UnitCost::alike);
    const std::optional<int> per_thread = gpus_per_thread(o.gpus_per_thread);

    CollRun run{CollReport{std::string(to_string(*op)), file ? "msccl" : choice.algo, choice.proto, topo.name(),
                           o.topology, n, {}, o.model, {}},
                sizes.size()};
    CollReport& report = run.report;
    const Calibration calibration = o.calibration.empty() ? Calibration{} : load_calibration(o.calibration);
    try {
        for (Bytes requested : sizes) {
            // Like nccl-tests: whole elements, and for block operations a multiple of n.
            int64_t count = requested.count() / dtype->size;
            if (in_blocks(*op)) count = count / n * n;
            req.bytes = Bytes(count * dtype->size);
            const Prediction p = predict_collective(topo, routes, req, calibration);
            // As nccl-tests -g N would time it: no faster than one thread's N launches.
            const Time measured = per_thread ? with_launch_floor(p.time, *per_thread, calibration) : p.time;
            CollRow row = make_row(req.bytes, count, std::string(dtype->name), measured, busbw_factor(*op, n));
            row.algo = p.algo;
            row.proto = std::string(to_string(p.proto));
            row.channels = p.channels;
            row.redop = redop;
            row.root = root;
            row.model = std::string(to_string(p.tier));
            row.reductions = p.reductions;
            if (p.hang) {
                run.hung = true;
                row.algbw_GBps = row.busbw_GBps = 0;
                row.hang = hang_info(topo, *p.hang);
            }
            if (o.explain && p.flow && p.closed)
                row.explain = CollExplain{*p.flow, p.closed->total(), p.closed->latency, p.closed->bandwidth,
                                          describe_difference(topo, to_string(p.tier), *p.flow, p.closed->total(),
                                                              p.link_traffic)};
            else if (p.closed)
                row.explain = CollExplain{std::nullopt, p.closed->total(), p.closed->latency, p.closed->bandwidth, ""};
            if (o.links > 0 && req.link_traffic && p.flow)
                row.links = busiest_coll_links(topo, p.link_traffic, *p.flow, static_cast<std::size_t>(o.links));
            report.rows.push_back(std::move(row));
            if (hook) {
                hook->add_done();
                // Between sizes too: a sweep of quick sizes has few events to poll on.
                if (report.rows.size() < sizes.size()) hook->poll();
            }
        }
    } catch (const RunStopped&) {
        run.stopped = true;
    }
    if (!run.stopped && o.explain && !file && (choice.algo == "auto" || choice.proto == "auto") && !sizes.empty())
        report.tuner_spans = tuner_spans(topo, routes, req, calibration, *std::min_element(sizes.begin(), sizes.end()),
                                         *std::max_element(sizes.begin(), sizes.end()));
    return run;
}

int run_coll(const CollOptions& o) {
    ProgressMonitor monitor("collsim coll", o.progress);
    if (o.format != "table" && o.format != "json" && o.format != "csv")
        bad_option("--format", "one of table, json, csv", o.format);
    const CollRun run = simulate_coll(o, monitor.hook());
    const CollReport& report = run.report;
    std::optional<PartialRun> partial;
    if (run.stopped) partial = monitor.partial(report.rows.size(), run.sizes, "sizes");
    std::string out = o.format == "json" ? stamp_json(render_json(report), Provenance{o.topology, o.calibration, true,
                                                                                      o.seed, o.model, o.settings})
                      : o.format == "csv" ? render_csv(report)
                                          : render_table(report);
    if (partial) out = mark_partial(out, *partial, o.format == "json");
    monitor.finish();
    std::fwrite(out.data(), 1, out.size(), stdout);
    return partial || (run.hung && o.fail_on_hang) ? 1 : 0;
}

}  // namespace collsim
