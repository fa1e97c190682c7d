#include "sim/cli/coll_run.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/msccl/msccl_algorithm.hpp"
#include "sim/cli/gpu_list.hpp"
#include "sim/cli/nccl_environment.hpp"
#include "sim/cli/options.hpp"
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
        CollLink l{link_name(topo, t.channel), t.bytes, 0, 0, t.peak_flows};
        if (span_s > 0) l.average_GBps = static_cast<double>(t.bytes.count()) / span_s / 1e9;
        if (t.capacity.bps() > 0) l.utilisation = l.average_GBps / t.capacity.gbps();
        out.push_back(std::move(l));
    }
    return out;
}
}  // namespace

CollRun run_coll_sweep(const CollOptions& o, ProgressMonitor& monitor) {
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
    if (!file)
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
    req.link_traffic = o.links > 0 && req.model != ModelTier::analytical;
    req.msccl = file ? &*file : nullptr;
    if (!o.faults.empty()) req.setup = link_fault_setup(load_fault_plan(o.faults, topo));
    req.timeout = parse_timeout(o.timeout);
    RunMonitor* const hook = monitor.hook();
    req.setup = with_monitor(std::move(req.setup), hook);
    // A sweep of growing sizes costs more with each size (up to the lumping
    // of long schedules, at least as much): the ETA then assumes so.
    if (hook)
        hook->begin_stage("sizes", sizes.size(),
                          std::is_sorted(sizes.begin(), sizes.end()) ? RunMonitor::UnitCost::rising
                                                                     : RunMonitor::UnitCost::alike);
    bool hung = false;
    const std::optional<int> per_thread = gpus_per_thread(o.gpus_per_thread);

    CollReport report{std::string(to_string(*op)), file ? "msccl" : choice.algo, choice.proto, topo.name(), o.topology,
                      n, {}, o.model, {}};
    const Calibration calibration = o.calibration.empty() ? Calibration{} : load_calibration(o.calibration);
    std::optional<PartialRun> partial;
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
                hung = true;
                row.algbw_GBps = row.busbw_GBps = 0;
                row.hang = hang_info(topo, *p.hang);
            }
            if (o.explain && p.flow && p.closed)
                row.explain = CollExplain{*p.flow, p.closed->total(), p.closed->latency, p.closed->bandwidth,
                                          describe_difference(topo, *p.flow, p.closed->total(), p.peak_link_load)};
            else if (p.closed)
                row.explain = CollExplain{std::nullopt, p.closed->total(), p.closed->latency, p.closed->bandwidth, ""};
            if (req.link_traffic && p.flow)
                row.links = busiest_coll_links(topo, p.link_traffic, *p.flow, static_cast<std::size_t>(o.links));
            report.rows.push_back(std::move(row));
            if (hook) {
                hook->add_done();
                // Between sizes too: a sweep of quick sizes has few events to poll on.
                if (report.rows.size() < sizes.size()) hook->poll();
            }
        }
    } catch (const RunStopped&) {
        partial = monitor.partial(report.rows.size(), sizes.size(), "sizes");
    }
    if (!partial && o.explain && !file && (choice.algo == "auto" || choice.proto == "auto") && !sizes.empty())
        report.tuner_spans = tuner_spans(topo, routes, req, calibration, *std::min_element(sizes.begin(), sizes.end()),
                                         *std::max_element(sizes.begin(), sizes.end()));
    return CollRun{std::move(report), partial, hung};
}

}  // namespace collsim
