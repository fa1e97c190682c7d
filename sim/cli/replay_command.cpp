#include "sim/cli/replay_command.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "algorithms/algorithm.hpp"
#include "sim/cli/nccl_environment.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/provenance.hpp"
#include "sim/core/error.hpp"
#include "sim/cli/topology_input.hpp"
#include "sim/model/predict.hpp"
#include "sim/replay/import/any_trace.hpp"
#include "sim/replay/replayer.hpp"
#include "sim/report/perfetto.hpp"
#include "sim/report/replay_report.hpp"
#include "sim/validate/calibration_profile.hpp"

namespace collsim {

namespace {
// Op instances a replay finishes: every rank's ops, once per step.
uint64_t op_instances(const Trace& trace, int steps) {
    uint64_t n = 0;
    for (int r = 0; r < trace.ranks; ++r) n += trace.program(r).ops.size();
    return n * static_cast<uint64_t>(steps);
}

// A replay stopped part way has no step to measure: the report says how far
// it got (ops finished, simulated time, events).
std::string render_stopped_replay(const ReplayCliOptions& o, const Topology& topo, const RunMonitor::Counts& c,
                                  const PartialRun& p) {
    if (o.format == "json") {
        nlohmann::ordered_json j;
        j["trace"] = o.trace;
        j["topology"] = topo.name();
        j["simulated_us"] = c.simulated.us();
        j["events"] = c.events;
        return mark_partial(j.dump(2) + "\n", p, true);
    }
    return partial_line(p) + fmt::format("# replay of {} on {}: simulated {} in {} events before the stop\n", o.trace,
                                         topo.name(), format_time(c.simulated), c.events);
}
}  // namespace

CLI::App* add_replay_command(CLI::App& app, ReplayCliOptions& o) {
    CLI::App* c = app.add_subcommand("replay", "replay a workload trace: step time, overlap, bubbles, hot links");
    c->add_option("--topology,-t", o.topology, "topology file: YAML, or NCCL topology XML (imported on the fly)")->required();
    add_set_option(c, o.settings);
    c->add_option("--trace,-w", o.trace, "workload trace: native YAML/JSON, Chakra JSON or Kineto JSON")->required();
    c->add_flag("--ranks-present", o.ranks_present,
                "the trace's rank files are only some of the job's ranks (world_size): replicate them to the whole job");
    c->add_option("--steps", o.steps, "run the trace's program this many times back to back")->capture_default_str();
    c->add_option("--format", o.format, "table, json or csv (one row per rank)")->capture_default_str();
    c->add_option("--perfetto", o.perfetto, "also write a Perfetto/Chrome trace JSON to this file");
    c->add_option("--calibration", o.calibration, "calibration profile (from collsim calibrate); default: specs");
    c->add_option("--rows", o.rows, "collectives and bubbles listed in the table")->capture_default_str();
    c->add_option("--links", o.links, "busiest links to report")->capture_default_str();
    c->add_option("--max-schedule-steps", o.max_schedule_steps,
                  "simulate fewer channels than NCCL launches past this many steps per collective (memory and time)")
        ->capture_default_str();
    c->add_option("--seed", o.seed, "random seed (intermittent stragglers in --faults)")->capture_default_str();
    accept_nccl_algorithm_names(
        c->add_option("--algo", o.algo,
                      "every collective's algorithm (as NCCL_ALGO, NCCL's names too): " + algorithm_choices() +
                          ", or auto: NCCL's tuner")
            ->each([&o](const std::string&) { o.choice_given[0] = true; })
            ->capture_default_str());
    accept_nccl_protocol_names(
        c->add_option("--proto", o.proto, "every collective's protocol (as NCCL_PROTO): ll, ll128, simple, or auto")
            ->each([&o](const std::string&) { o.choice_given[1] = true; })
            ->capture_default_str());
    c->add_option("--model", o.model, "auto, flow (every chunk a flow) or fluid (pipelines as long-lived flows)")
        ->capture_default_str();
    add_algorithm_switches(c, o.disable, o.enable);
    for (const char* name : {"--disable", "--enable"})
        c->get_option(name)->each([&o](const std::string&) { o.choice_given[2] = true; });
    c->add_option("--faults", o.faults, "fault scenario YAML: link faults and compute faults (slow, pause, straggler)");
    c->add_option("--timeout", o.timeout, "watchdog: stop the replay there and report a hang, e.g. 10min");
    c->add_flag("--fail-on-hang", o.fail_on_hang, "exit 1 when the replay hangs");
    add_progress_options(c, o.progress);
    return c;
}

ReplayOptions ReplayInputs::options() const {
    ReplayOptions r = opts;
    r.faults = faults ? &*faults : nullptr;
    return r;
}

ReplayInputs load_replay_inputs(const ReplayCliOptions& o, const Topology& topo) {
    if (o.steps < 1 || o.steps > 10000) bad_option("--steps", "1 to 10000", std::to_string(o.steps));
    if (o.rows < 0) bad_option("--rows", "0 or more", std::to_string(o.rows));
    if (o.links < 0) bad_option("--links", "0 or more", std::to_string(o.links));
    Trace trace = load_any_trace(o.trace, TraceImportOptions{o.ranks_present});
    for (const std::string& note : trace.notes) fmt::print(stderr, "collsim: note: {}\n", note);
    ReplayOptions opts;
    opts.steps = o.steps;
    opts.sample_links = !o.perfetto.empty();
    if (!o.calibration.empty()) opts.calibration = load_calibration(o.calibration);
    if (o.max_schedule_steps < 1)
        bad_option("--max-schedule-steps", "1 or more", std::to_string(o.max_schedule_steps));
    opts.max_schedule_steps = o.max_schedule_steps;
    // The environment's NCCL_* as NCCL reads them for an AllReduce: a replay
    // mixes collectives, and per-function lists ("allreduce:tree") are rare.
    AlgorithmChoice choice{o.algo, o.proto, o.disable, o.enable, {}, o.choice_given[0], o.choice_given[1],
                           o.choice_given[2]};
    if (o.follow_environment)
        for (const std::string& note : follow_nccl_environment(CollOp::allreduce, choice))
            fmt::print(stderr, "collsim replay: note: {}\n", note);
    if (!choice.protos.disabled.empty() || !choice.protos.enabled.empty())
        bad_option("NCCL_PROTO", "a single protocol for replay (it fixes every collective's protocol)",
                   std::getenv("NCCL_PROTO"));
    // Checked here, not at the first collective: a trace without one would let any name pass.
    check_algo_proto_names(choice.algo, choice.proto);
    opts.algo = choice.algo;
    opts.proto = choice.proto;
    const std::optional<ModelTier> tier = model_tier_from(o.model);
    if (!tier || *tier == ModelTier::analytical)
        bad_option("--model", "one of auto, flow, fluid (a replay shares one network: no closed form)", o.model);
    opts.model = *tier;
    check_algorithm_switches(choice.disabled, choice.enabled);
    opts.disabled = choice.disabled;
    opts.enabled = choice.enabled;
    opts.timeout = parse_timeout(o.timeout);
    opts.seed = o.seed;
    std::optional<FaultPlan> faults;
    if (!o.faults.empty()) faults = load_fault_plan(o.faults, topo);
    return ReplayInputs{std::move(trace), std::move(faults), std::move(opts)};
}

int run_replay(const ReplayCliOptions& o) {
    ProgressMonitor monitor("collsim replay", o.progress);
    if (o.format != "table" && o.format != "json" && o.format != "csv")
        bad_option("--format", "one of table, json, csv", o.format);
    const Topology topo = load_cli_topology(o.topology, o.settings);
    const ReplayInputs in = load_replay_inputs(o, topo);
    const Trace& trace = in.trace;
    const std::optional<FaultPlan>& faults = in.faults;
    ReplayOptions opts = in.options();
    opts.monitor = monitor.hook();
    const uint64_t ops = op_instances(trace, o.steps) * (faults ? 2 : 1);  // with the baseline below
    // A compute kernel and a 1 GiB AllReduce are one op each: no ETA from op counts.
    if (opts.monitor) opts.monitor->begin_stage("ops", ops, RunMonitor::UnitCost::unknown);
    const auto emit = [&o](std::string out) {
        if (o.format == "json") out = stamp_json(out, Provenance{o.topology, o.calibration, true, o.seed, o.model, o.settings});
        std::fwrite(out.data(), 1, out.size(), stdout);
    };
    std::optional<ReplayResult> result;
    std::optional<StepTimes> baseline;
    try {
        // Loading may have used the time up, and a replay of fewer than
        // RunMonitor::kPollEvents events is never polled.
        if (opts.monitor) opts.monitor->poll();
        result = replay(topo, trace, opts);
        if (faults && !result->hang) {
            // The same replay without the faults, to say what they cost.
            ReplayOptions clean = opts;
            clean.faults = nullptr;
            clean.sample_links = false;
            baseline = step_times(trace, replay(topo, trace, clean));
        }
    } catch (const RunStopped&) {
        const RunMonitor::Counts c = monitor.counts();
        const std::string out = render_stopped_replay(o, topo, c, monitor.partial(c.done, ops, "ops"));
        monitor.finish();
        emit(out);
        return 1;
    }
    monitor.finish();
    if (result->hang) {
        emit(render_replay_hang(topo, *result->hang, o.format == "json"));
        return o.fail_on_hang ? 1 : 0;
    }
    ReplayReport rep = make_replay_report(topo, trace, *result, static_cast<std::size_t>(o.links));
    rep.faults = opts.faults;
    rep.baseline = baseline;
    if (!o.perfetto.empty()) {
        std::ofstream out(o.perfetto);
        if (!out) bad_option("--perfetto", "a file that can be written", o.perfetto);
        out << render_perfetto(rep, static_cast<std::size_t>(o.links));
    }
    emit(o.format == "json"  ? render_replay_json(rep)
         : o.format == "csv" ? render_replay_csv(rep)
                             : render_replay_table(rep, static_cast<std::size_t>(o.rows)));
    return 0;
}

}  // namespace collsim
