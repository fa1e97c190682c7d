#include "sim/cli/compare_command.hpp"

#include <cstdio>
#include <memory>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "sim/cli/coll_command.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/plan_command.hpp"
#include "sim/cli/provenance.hpp"
#include "sim/cli/replay_command.hpp"
#include "sim/cli/topology_input.hpp"
#include "sim/plan/model_card.hpp"
#include "sim/plan/plan_compare.hpp"
#include "sim/replay/replayer.hpp"
#include "sim/report/compare.hpp"

namespace collsim {

namespace {

// What one side runs.
struct Variant {
    std::string topology;
    std::vector<std::string> settings;
    std::string calibration, algo;
};

bool is_msccl_file(const std::string& algo) { return algo.ends_with(".xml"); }

Variant variant(const CompareOptions& o, bool a) {
    Variant v;
    const std::string& own = a ? o.a_topology : o.b_topology;
    const std::size_t positional = a ? 0 : 1;
    v.topology = !own.empty()                       ? own
                 : o.files.size() > positional      ? o.files[positional]
                 : o.files.size() == 1              ? o.files[0]
                                                    : o.topology;
    if (v.topology.empty())
        bad_option(a ? "--a-topology" : "--b-topology", "a topology for each side: A B, --topology or --a-/--b-topology",
                   "none");
    v.settings = o.settings;
    for (const std::string& s : a ? o.a_settings : o.b_settings) v.settings.push_back(s);
    v.calibration = !(a ? o.a_calibration : o.b_calibration).empty() ? (a ? o.a_calibration : o.b_calibration) : o.calibration;
    const std::string& algo = a ? o.a_algo : o.b_algo;
    v.algo = !algo.empty() ? algo : o.algo;
    // Checked here, so the message names the option that gave the name.
    if (!v.algo.empty() && !is_msccl_file(v.algo) && v.algo != "auto" && !find_algorithm(v.algo))
        bad_option(!algo.empty() ? (a ? "--a-algo" : "--b-algo") : "--algo",
                   algorithm_choices() + ", auto, or an MSCCL XML file (.xml)", v.algo);
    return v;
}

std::string label(const Variant& v) {
    std::string out = v.topology;
    for (const std::string& s : v.settings) out += " --set " + s;
    if (!v.calibration.empty()) out += " --calibration " + v.calibration;
    if (!v.algo.empty()) out += (is_msccl_file(v.algo) ? " --algo-file " : " --algo ") + v.algo;
    return out;
}

// A percentage, "2%" or "2": the widest |B/A - 1| still called the same.
double parse_threshold(const std::string& text) {
    const std::string number = text.ends_with('%') ? text.substr(0, text.size() - 1) : text;
    std::size_t used = 0;
    double pct = -1;
    try {
        pct = std::stod(number, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != number.size() || pct < 0 || pct >= 100)
        bad_option("--threshold", "a percentage from 0 to below 100, like 2%", text);
    return pct / 100;
}

CollReport run_coll_side(const CompareOptions& o, const Variant& v) {
    CollOptions c;
    c.topology = v.topology;
    c.settings = v.settings;
    c.calibration = v.calibration;
    if (is_msccl_file(v.algo)) {
        c.algo_file = v.algo;
    } else if (!v.algo.empty()) {
        c.algo = v.algo;
        c.algo_given = true;
    }
    c.proto = o.proto;
    c.proto_given = o.proto_given;
    c.op = o.op;
    c.sizes = o.sizes;
    c.sizes_given = true;
    c.dtype = o.dtype;
    c.model = o.model;
    c.routing = o.routing;
    c.seed = o.seed;
    c.links = o.links;
    c.ranks = o.ranks;
    c.ranks_given = o.ranks_given;
    c.progress.quiet = o.quiet;
    ProgressMonitor monitor("collsim compare", c.progress);
    CollRun run = simulate_coll(c, monitor.hook());
    monitor.finish();
    return std::move(run.report);
}

// A replayed side: what the report points into stays here, and the
// Topology is built in place (moving one copies its Boost graph).
struct ReplaySide {
    explicit ReplaySide(const ReplayCliOptions& r)
        : topo(load_cli_topology(r.topology, r.settings)), inputs(load_replay_inputs(r, topo)) {}
    Topology topo;
    ReplayInputs inputs;
    std::optional<ReplayResult> result;
    std::optional<ReplayReport> report;  // none: it hung
};

std::unique_ptr<ReplaySide> run_replay_side(const CompareOptions& o, const Variant& v, bool a) {
    if (is_msccl_file(v.algo))
        bad_option(a ? "--a-algo" : "--b-algo", "an algorithm name for a replay (MSCCL files time one collective)",
                   v.algo);
    ReplayCliOptions r;
    r.topology = v.topology;
    r.settings = v.settings;
    r.trace = o.trace;
    r.calibration = v.calibration;
    if (!v.algo.empty()) {
        r.algo = v.algo;
        r.choice_given[0] = true;
    }
    r.proto = o.proto;
    r.choice_given[1] = o.proto_given;
    r.model = o.model;
    r.links = o.links;
    r.steps = o.steps;
    r.seed = o.seed;
    r.progress.quiet = o.quiet;
    ProgressMonitor monitor("collsim compare", r.progress);
    auto side = std::make_unique<ReplaySide>(r);
    ReplayOptions opts = side->inputs.options();
    opts.monitor = monitor.hook();
    side->result = replay(side->topo, side->inputs.trace, opts);
    monitor.finish();
    if (!side->result->hang)
        side->report = make_replay_report(side->topo, side->inputs.trace, *side->result, static_cast<std::size_t>(o.links));
    return side;
}

PlanResult run_plan_side(const CompareOptions& o, const Variant& v, bool a) {
    if (!v.algo.empty())
        bad_option(a ? "--a-algo" : "--b-algo", "no algorithm with --plan (the tuner picks each collective's)", v.algo);
    PlanCliOptions p;
    p.model = o.plan;
    p.topology = v.topology;
    p.settings = v.settings;
    p.calibration = v.calibration;
    if (o.model != "auto") p.tier = o.model;
    const char* side = a ? "--a-layout" : "--b-layout";
    for (const auto& [option, list] : {std::pair{"--layout", &o.layout}, std::pair{side, a ? &o.a_layout : &o.b_layout}})
        for (const std::string& item : *list) {
            const std::size_t eq = item.find('=');
            if (eq == std::string::npos || !set_plan_layout_option(p, item.substr(0, eq), item.substr(eq + 1), option))
                bad_option(option, "KEY=VALUE with a plan layout option (tp, pp, dp, ep, cp, vpp, zero, sp, micro_batch, "
                                   "global_batch, seq, recompute, dtype, overlap, gpu, gpus)",
                           item);
        }
    return plan_training(p);
}

// The files both sides read, each once.
std::vector<HtmlInput> compare_inputs(const CompareOptions& o, const Variant& a, const Variant& b) {
    std::vector<HtmlInput> inputs;
    for (const Variant* v : {&a, &b}) add_input(inputs, "topology", v->topology);
    for (const Variant* v : {&a, &b}) add_input(inputs, "calibration", v->calibration);
    for (const Variant* v : {&a, &b})
        if (is_msccl_file(v->algo)) add_input(inputs, "MSCCL algorithm", v->algo);
    add_input(inputs, "trace", o.trace);
    if (!o.plan.empty()) add_input(inputs, "model card", find_model_card_file(o.plan, COLLSIM_MODELS_DIR));
    return inputs;
}

}  // namespace

CLI::App* add_compare_command(CLI::App& app, CompareOptions& o) {
    CLI::App* c = app.add_subcommand("compare", "two variants side by side: time, bandwidth, busiest links, B/A, verdict");
    c->add_option("topologies", o.files, "A's and B's topology files (one: both sides)")->expected(0, 2);
    c->add_option("--topology,-t", o.topology, "topology of both sides");
    c->add_option("--a-topology", o.a_topology, "A's topology");
    c->add_option("--b-topology", o.b_topology, "B's topology");
    c->add_option("--set", o.settings, "a --set change to both sides' topology (repeatable)")->allow_extra_args(false);
    c->add_option("--a-set", o.a_settings, "a --set change to A's topology only (repeatable)")->allow_extra_args(false);
    c->add_option("--b-set", o.b_settings, "a --set change to B's topology only (repeatable)")->allow_extra_args(false);
    c->add_option("--calibration", o.calibration, "calibration profile of both sides; default: specs");
    c->add_option("--a-calibration", o.a_calibration, "A's calibration profile");
    c->add_option("--b-calibration", o.b_calibration, "B's calibration profile");
    for (auto [name, target, who] : {std::tuple{"--algo", &o.algo, "both sides'"}, std::tuple{"--a-algo", &o.a_algo, "A's"},
                                     std::tuple{"--b-algo", &o.b_algo, "B's"}})
        accept_nccl_algorithm_names(c->add_option(
            name, *target, fmt::format("{} algorithm: {}, auto, or an MSCCL XML file (.xml)", who, algorithm_choices())));
    accept_nccl_protocol_names(c->add_option("--proto", o.proto, "NCCL protocol: ll, ll128, simple or auto")
                                   ->each([&o](const std::string&) { o.proto_given = true; })
                                   ->capture_default_str());
    accept_nccl_collective_names(c->add_option("--op", o.op, fmt::format("collective: {}", coll_op_choices()))
                                     ->each([&o](const std::string&) { o.op_given = true; }));
    c->add_option("--sizes", o.sizes, "MIN:MAX (x2 steps), MIN:MAX:FACTOR or a list 8,1M,1G")
        ->each([&o](const std::string&) { o.sizes_given = true; })
        ->capture_default_str();
    c->add_option("--ranks", o.ranks, "ranks of the collective (the first N GPUs); default all")
        ->each([&o](const std::string&) { o.ranks_given = true; });
    c->add_option("--dtype,-d", o.dtype, "element type")->capture_default_str();
    c->add_option("--trace,-w", o.trace, "a workload trace: compare the replayed step (not with --op/--sizes)");
    c->add_option("--plan", o.plan, "a model card (name or YAML): compare a training layout's step, as collsim plan");
    c->add_option("--layout", o.layout, "plan: both sides' layout, KEY=VALUE (tp=8, pp=4, micro_batch=2; repeatable)")
        ->delimiter(',');
    c->add_option("--a-layout", o.a_layout, "plan: A's layout options, after --layout")->delimiter(',');
    c->add_option("--b-layout", o.b_layout, "plan: B's layout options, after --layout")->delimiter(',');
    c->add_option("--steps", o.steps, "replay: run the trace this many times")->capture_default_str();
    c->add_option("--rows", o.rows, "replay: A's longest collectives compared one by one")->capture_default_str();
    c->add_option("--model", o.model, "auto, flow, fluid (or analytical for a collective)")->capture_default_str();
    c->add_option("--routing", o.routing, "collective: ecmp, single or adaptive")->capture_default_str();
    c->add_option("--links", o.links, "busiest link directions shown per row and side (0: none)")->capture_default_str();
    c->add_option("--threshold", o.threshold, "B/A within this of 1 is 'same'")->capture_default_str();
    c->add_option("--format", o.format, "table, json or csv")->capture_default_str();
    c->add_option("--seed", o.seed, "random seed (ECMP hashing)")->capture_default_str();
    c->add_flag("--quiet", o.quiet, "no progress on stderr");
    add_html_option(c, o.html);
    return c;
}

int run_compare(const CompareOptions& o) {
    if (o.format != "table" && o.format != "json" && o.format != "csv")
        bad_option("--format", "one of table, json, csv", o.format);
    if (o.links < 0) bad_option("--links", "0 or more", std::to_string(o.links));
    if (o.rows < 0) bad_option("--rows", "0 or more", std::to_string(o.rows));
    if (!o.files.empty() && (!o.topology.empty() || (!o.a_topology.empty() && !o.b_topology.empty())))
        bad_option("topologies", "either A B files or --topology / --a-topology and --b-topology", o.files[0]);
    Comparison c;
    c.threshold = parse_threshold(o.threshold);
    const Variant a = variant(o, true), b = variant(o, false);
    c.a_label = label(a);
    c.b_label = label(b);
    if (!o.plan.empty()) {
        if (o.op_given || o.sizes_given || !o.trace.empty())
            bad_option(o.op_given ? "--op" : o.sizes_given ? "--sizes" : "--trace",
                       "no collective or trace options with --plan", o.op_given ? o.op : o.sizes_given ? o.sizes : o.trace);
        const PlanResult pa = run_plan_side(o, a, true), pb = run_plan_side(o, b, false);
        for (auto [text, own] : {std::pair{&c.a_label, &o.a_layout}, std::pair{&c.b_label, &o.b_layout}})
            for (const auto* list : {&o.layout, own})
                for (const std::string& item : *list) *text += " " + item;
        c.kind = "plan";
        c.what = fmt::format("{} training step on {} GPUs", pa.model, pa.gpus);
        if (pa.gpus != pb.gpus) c.what += fmt::format(" (B: {})", pb.gpus);
        add_plan_rows(c, pa, pb);
    } else if (o.trace.empty()) {
        const CollReport ra = run_coll_side(o, a);
        const CollReport rb = run_coll_side(o, b);
        c.kind = "coll";
        c.what = fmt::format("{} on {} ranks", ra.op, ra.ranks);
        if (ra.ranks != rb.ranks) c.what += fmt::format(" (B: {} ranks)", rb.ranks);
        add_coll_rows(c, ra, rb);
    } else {
        if (o.op_given || o.sizes_given)
            bad_option(o.op_given ? "--op" : "--sizes", "no collective options with --trace (the trace has its own)",
                       o.op_given ? o.op : o.sizes);
        const auto ra = run_replay_side(o, a, true);
        const auto rb = run_replay_side(o, b, false);
        c.kind = "replay";
        c.what = fmt::format("replay of {}, {} step(s)", o.trace, o.steps);
        add_replay_rows(c, ra->report ? &*ra->report : nullptr, rb->report ? &*rb->report : nullptr,
                        static_cast<std::size_t>(o.links), static_cast<std::size_t>(o.rows));
    }
    const std::string out = o.format == "json"
                                ? stamp_json(render_compare_json(c), Provenance{"", "", false, o.seed, o.model})
                            : o.format == "csv" ? render_compare_csv(c)
                                                : render_compare_table(c);
    std::fwrite(out.data(), 1, out.size(), stdout);
    if (!o.html.file.empty())
        write_html_report(o.html.file, render_compare_html(c, report_provenance(o.html, compare_inputs(o, a, b))));
    return 0;
}

}  // namespace collsim
