#include "sim/cli/regress_run.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/cli/coll_command.hpp"
#include "sim/cli/plan_command.hpp"
#include "sim/cli/replay_command.hpp"
#include "sim/cli/topology_input.hpp"
#include "sim/core/fnv1a.hpp"
#include "sim/core/text_file.hpp"
#include "sim/model/model_version.hpp"
#include "sim/replay/step_metrics.hpp"
#include "sim/replay/step_times.hpp"

namespace collsim {

namespace {
// As nccl-tests takes sizes: 8, 64K, 1M, 1G (powers of two), else bytes.
std::string size_label(Bytes b) {
    const int64_t n = b.count();
    for (const auto& [unit, scale] : {std::pair{"G", int64_t{1} << 30}, {"M", int64_t{1} << 20}, {"K", int64_t{1} << 10}})
        if (n >= scale && n % scale == 0) return fmt::format("{}{}", n / scale, unit);
    return std::to_string(n);
}

// Enough of a hang's dead links to point at the fault; `coll --faults` lists them all.
constexpr std::size_t kDeadLinksShown = 4;

void add_time(EntryResult& r, const std::string& name, Time t) {
    r.metrics.emplace_back(name, static_cast<double>(t.ps()) / 1e6);
}

void run_coll_entry(const SuiteEntry& e, EntryResult& r) {
    CollOptions o;
    o.topology = e.topology.resolved;
    o.settings = e.settings;
    o.op = e.op;
    o.algo = e.algo;
    o.proto = e.proto;
    o.algo_file = e.algo_file.resolved;
    o.sizes = fmt::format("{}", fmt::join(e.sizes, ","));
    o.sizes_given = true;
    o.dtype = e.dtype;
    o.calibration = e.calibration.resolved;
    o.model = e.model;
    o.ranks = e.ranks;
    o.ranks_given = e.ranks > 0;
    o.faults = e.faults.resolved;
    o.timeout = e.timeout;
    o.links = 0;
    if (e.seed) o.seed = *e.seed;
    o.follow_environment = false;
    const CollRun run = simulate_coll(o, nullptr);
    for (const CollRow& row : run.report.rows) {
        const std::string size = size_label(row.size);
        r.ran.emplace_back(size, fmt::format("{} {} {}ch {}", row.algo, row.proto, row.channels, row.model));
        if (row.hang) {
            r.hung = true;
            const std::vector<std::string>& dead = row.hang->dead_links;
            const std::size_t shown = std::min<std::size_t>(dead.size(), kDeadLinksShown);
            r.hang += fmt::format("{}{} {} at {}", r.hang.empty() ? "" : "; ", size,
                                  row.hang->timed_out ? "timed out" : "no progress possible", format_time(row.hang->at));
            if (shown > 0)
                r.hang += fmt::format(" (dead: {}{})", fmt::join(dead.begin(), dead.begin() + static_cast<std::ptrdiff_t>(shown), ", "),
                                      dead.size() > shown ? fmt::format(" and {} more", dead.size() - shown) : "");
            continue;
        }
        add_time(r, size + " time_us", row.time);
        r.metrics.emplace_back(size + " algbw_GBps", row.algbw_GBps);
        r.metrics.emplace_back(size + " busbw_GBps", row.busbw_GBps);
    }
}

void run_replay_entry(const SuiteEntry& e, EntryResult& r) {
    ReplayCliOptions o;
    o.topology = e.topology.resolved;
    o.settings = e.settings;
    o.trace = e.trace.resolved;
    o.steps = e.steps;
    if (e.seed) o.seed = *e.seed;
    o.calibration = e.calibration.resolved;
    o.algo = e.algo;
    o.proto = e.proto;
    o.model = e.model;
    o.faults = e.faults.resolved;
    o.timeout = e.timeout;
    o.follow_environment = false;
    const Topology topo = load_cli_topology(o.topology, o.settings);
    const ReplayInputs in = load_replay_inputs(o, topo);
    const ReplayResult result = replay(topo, in.trace, in.options());
    if (result.hang) {
        r.hung = true;
        r.hang = fmt::format("{} at {}", result.hang->timed_out ? "timed out" : "no progress possible",
                             format_time(result.hang->at));
        return;
    }
    const StepTimes steps = step_times(in.trace, result);
    const StepMetrics m = step_metrics(in.trace, result);
    add_time(r, "step_time_us", m.step_time);
    // Per step, averaged over the ranks: communication nothing hid, and bubbles.
    const double step_us = static_cast<double>(m.step_time.ps()) / 1e6;
    r.metrics.emplace_back("exposed_comm_us", m.average.exposed_comm * step_us);
    r.metrics.emplace_back("idle_us", m.average.idle * step_us);
    add_time(r, "p50_step_us", steps.p50);
    add_time(r, "p99_step_us", steps.p99);
    add_time(r, "max_step_us", steps.max);
}

// plan's options from the suite's plan: map (numbers checked by the suite reader).
PlanCliOptions plan_options(const SuiteEntry& e) {
    PlanCliOptions o;
    o.model = e.plan_card.resolved;
    o.topology = e.topology.resolved;
    o.settings = e.settings;
    o.calibration = e.calibration.resolved;
    if (e.model != "auto") o.tier = e.model;
    const std::map<std::string, int*> ints{{"gpus", &o.gpus}, {"tp", &o.tp}, {"pp", &o.pp}, {"dp", &o.dp},
                                           {"ep", &o.ep},     {"cp", &o.cp}, {"vpp", &o.vpp}, {"zero", &o.zero}};
    const std::map<std::string, int64_t*> counts{
        {"micro_batch", &o.micro_batch}, {"global_batch", &o.global_batch}, {"seq", &o.seq}};
    const std::map<std::string, std::string*> words{{"recompute", &o.recompute}, {"dtype", &o.dtype},
                                                    {"overlap", &o.overlap},     {"gpu", &o.gpu}, {"sp", &o.sp}};
    for (const auto& [key, value] : e.plan) {
        if (auto i = ints.find(key); i != ints.end()) *i->second = static_cast<int>(std::stoll(value));
        if (auto c = counts.find(key); c != counts.end()) *c->second = std::stoll(value);
        if (auto w = words.find(key); w != words.end()) *w->second = value;
    }
    return o;
}

void run_plan_entry(const SuiteEntry& e, EntryResult& r) {
    const PlanCliOptions o = plan_options(e);
    const PlanResult p = plan_training(o);
    const double gib = static_cast<double>(p.memory.total()) / (1024.0 * 1024 * 1024);
    r.metrics.emplace_back("memory_GiB", gib);
    if (!p.memory.fits()) {
        // No step time: the layout does not fit (plan's exit 1).
        r.ran.emplace_back("layout", "does not fit memory");
        return;
    }
    r.ran.emplace_back("layout", fmt::format("tp{} pp{} dp{} cp{} ep{} tier {}", p.layout.tp, p.layout.pp, p.layout.dp,
                                             p.layout.cp, p.layout.ep, o.tier));
    r.metrics.emplace_back("step_time_us", p.step * 1e6);
    r.metrics.emplace_back("tokens_per_s", p.tokens_per_s);
    r.metrics.emplace_back("mfu", p.mfu);
    r.metrics.emplace_back("bubble_us", p.bubble * 1e6);
    for (const CommLine& c : p.communication)
        r.metrics.emplace_back(fmt::format("{} {} exposed_us", c.group, c.op), c.exposed * 1e6);
}

// An error with no file of its own (an option's) or in a --set override is
// placed at the entry, in the suite's field names; a file's stays as it is.
InputError at_entry(const InputError& err, const SuiteEntry& e, std::size_t index) {
    const std::string& file = err.where().file;
    if (file.starts_with("--"))
        return InputError(e.where, fmt::format("entries[{}].{}: {}", index, file.substr(2), err.field()), err.expected(),
                          err.found());
    if (!file.empty()) return err;
    std::string field = err.field();
    if (field.starts_with("--")) field = field.substr(2);
    std::replace(field.begin(), field.end(), '-', '_');
    return InputError(e.where, fmt::format("entries[{}].{}", index, field), err.expected(), err.found());
}

EntryResult run_entry(const SuiteEntry& e, std::size_t index) {
    EntryResult r{e.name, e.model};
    r.tolerance = e.tolerance;
    try {
        if (e.replay) run_replay_entry(e, r);
        else if (e.is_plan()) run_plan_entry(e, r);
        else run_coll_entry(e, r);
    } catch (const InputError& err) {
        throw at_entry(err, e, index);
    } catch (const InputErrors& errs) {
        std::vector<InputError> placed;
        for (const InputError& err : errs.errors()) placed.push_back(at_entry(err, e, index));
        throw InputErrors(std::move(placed));
    }
    return r;
}
}  // namespace

Baseline run_suite(const Suite& suite) {
    Baseline b{COLLSIM_VERSION, kModelVersion, std::filesystem::path(suite.file.written).filename().string(), {}, {}};
    b.inputs.emplace_back(b.suite, fnv1a64_hex(read_text_file(suite.file.resolved)));
    for (std::size_t i = 0; i < suite.entries.size(); ++i) {
        const SuiteEntry& e = suite.entries[i];
        for (const SuitePath& p : e.inputs())
            if (std::none_of(b.inputs.begin(), b.inputs.end(), [&](const auto& in) { return in.first == p.written; }))
                b.inputs.emplace_back(p.written, fnv1a64_hex(read_text_file(p.resolved)));
        b.entries.push_back(run_entry(e, i));
    }
    return b;
}

}  // namespace collsim
