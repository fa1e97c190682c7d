#include "sim/cli/replay_run.hpp"

#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "sim/cli/nccl_environment.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/topology_input.hpp"
#include "sim/model/predict.hpp"
#include "sim/replay/import/any_trace.hpp"
#include "sim/validate/calibration_profile.hpp"

namespace collsim {

namespace {
// Op instances a replay finishes: every rank's ops, once per step.
uint64_t op_instances(const Trace& trace, int steps) {
    uint64_t n = 0;
    for (int r = 0; r < trace.ranks; ++r) n += trace.program(r).ops.size();
    return n * static_cast<uint64_t>(steps);
}

}  // namespace

std::unique_ptr<PreparedReplay> prepare_replay(const ReplayCliOptions& o, RunMonitor* monitor) {
    if (o.steps < 1 || o.steps > 10000) bad_option("--steps", "1 to 10000", std::to_string(o.steps));
    if (o.rows < 0) bad_option("--rows", "0 or more", std::to_string(o.rows));
    if (o.links < 0) bad_option("--links", "0 or more", std::to_string(o.links));
    // Built in place: make_unique would move the Topology, and moving one
    // copies its Boost graph.
    std::unique_ptr<PreparedReplay> p(new PreparedReplay{load_cli_topology(o.topology, o.settings),
                                                         load_any_trace(o.trace, TraceImportOptions{o.ranks_present}),
                                                         {}, std::nullopt, 0});
    const Trace& trace = p->trace;
    for (const std::string& note : trace.notes) fmt::print(stderr, "collsim: note: {}\n", note);
    ReplayOptions& opts = p->opts;
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
    if (!o.faults.empty()) p->faults = load_fault_plan(o.faults, p->topo);
    opts.faults = p->faults ? &*p->faults : nullptr;
    opts.monitor = monitor;
    p->ops = op_instances(trace, o.steps) * (p->faults ? 2 : 1);  // with the baseline run_replay adds
    // A compute kernel and a 1 GiB AllReduce are one op each: no ETA from op counts.
    if (opts.monitor) opts.monitor->begin_stage("ops", p->ops, RunMonitor::UnitCost::unknown);
    return p;
}

}  // namespace collsim
