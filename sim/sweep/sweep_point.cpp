#include "sim/sweep/sweep_point.hpp"

#include <algorithm>
#include <filesystem>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "sim/cli/coll_command.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/plan_command.hpp"
#include "sim/cli/replay_command.hpp"
#include "sim/cli/topology_input.hpp"
#include "sim/replay/step_metrics.hpp"
#include "sim/report/replay_report.hpp"

namespace collsim {

namespace {

struct PointValues {
    std::map<std::string, std::string> value;           // by parameter name (set: all settings)
    std::map<std::string, SourceLocation> where;        // by option name, e.g. --op
    std::vector<std::string> settings;
    std::string get(const std::string& name, std::string fallback = "") const {
        const auto it = value.find(name);
        return it == value.end() ? fallback : it->second;
    }
    bool has(const std::string& name) const { return value.count(name) > 0; }
};

std::string option_of(const std::string& parameter) {
    std::string o = "--" + parameter;
    std::replace(o.begin(), o.end(), '_', '-');
    return o;
}

PointValues values_of(const SweepSpec& spec, const SweepPoint& point) {
    PointValues v;
    for (std::size_t j = 0; j < spec.parameters.size(); ++j) {
        const SweepParameter& p = spec.parameters[j];
        const std::string& text = p.values[point.choice[j]];
        const SourceLocation& at = p.where[point.choice[j]];
        if (p.name.starts_with("set.")) {
            v.settings.push_back(p.name.substr(4) + "=" + text);
            v.where["--set"] = at;
            continue;
        }
        if (p.name == "set") {
            for (std::size_t start = 0; start <= text.size();) {
                const std::size_t end = std::min(text.find(';', start), text.size());
                v.settings.push_back(text.substr(start, end - start));
                start = end + 1;
            }
            v.where["--set"] = at;
            continue;
        }
        // `calibration: defaults`: the specs' figures, as coll without --calibration.
        if (p.name == "calibration" && text == "defaults") continue;
        v.value[p.name] = sweep_value_as_used(spec, p.name, text);
        v.where[option_of(p.name)] = at;
    }
    return v;
}

// Every integer option of coll, replay and plan fits in 32 bits.
int integer_value(const PointValues& v, const std::string& name) {
    const std::string text = v.get(name);
    const std::optional<int32_t> n = parse_int32(text);
    if (!n) {
        const auto it = v.where.find(option_of(name));
        throw InputError(it == v.where.end() ? SourceLocation{} : it->second, "parameters." + name,
                         "an integer (32 bits)", quote_input(text));
    }
    return *n;
}

uint64_t seed_value(const PointValues& v, uint64_t fallback) {
    if (!v.has("seed")) return fallback;
    const int s = integer_value(v, "seed");
    if (s < 0) throw InputError(v.where.at("--seed"), "parameters.seed", "0 or more", std::to_string(s));
    return static_cast<uint64_t>(s);
}

std::string number(double x, int digits) { return fmt::format("{:.{}f}", x, digits); }

// The busiest link direction and the busiest between switches, with their
// utilisation: the last four metric columns of coll and replay points.
// `links`: busiest first.
template <class Link, class BetweenSwitches>
std::vector<std::string> link_columns(const std::vector<Link>& links, BetweenSwitches between_switches) {
    std::vector<std::string> out(4);
    if (!links.empty()) out[0] = links.front().name, out[1] = number(links.front().utilisation, 4);
    for (const Link& l : links)
        if (between_switches(l)) {
            out[2] = l.name, out[3] = number(l.utilisation, 4);
            break;
        }
    return out;
}

std::vector<std::string> coll_metrics(const PointValues& v) {
    CollOptions o;
    o.topology = v.get("topology");
    o.settings = v.settings;
    o.op = v.get("op");
    if (v.has("algo")) o.algo = v.get("algo"), o.algo_given = true;
    o.algo_file = v.get("algo_file");
    if (!o.algo_file.empty()) o.algo = "auto";
    if (v.has("proto")) o.proto = v.get("proto"), o.proto_given = true;
    // Disabling nothing, as given: the environment's NCCL_* settings must not
    // change a sweep's numbers.
    o.switches_given = true;
    o.follow_environment = false;
    o.sizes = v.get("size", "1M");
    o.sizes_given = true;
    if (o.sizes.find_first_of(":,") != std::string::npos)
        throw InputError(v.where.at("--size"), "parameters.size", "one size per value (a list of values sweeps sizes)",
                         quote_input(o.sizes));
    if (v.has("ranks")) o.ranks = integer_value(v, "ranks"), o.ranks_given = true;
    if (v.has("channels")) o.channels = integer_value(v, "channels"), o.channels_given = true;
    o.dtype = v.get("dtype", o.dtype);
    o.calibration = v.get("calibration");
    o.model = v.get("model", o.model);
    o.routing = v.get("routing", o.routing);
    o.faults = v.get("faults");
    o.seed = seed_value(v, o.seed);
    // Every link, to find the busiest between switches too (a fat-tree's spine).
    o.links = std::numeric_limits<int>::max();
    o.progress.quiet = true;
    const CollRun run = simulate_coll(o, nullptr);
    const CollRow& r = run.report.rows.at(0);
    static const std::vector<CollLink> none;
    const std::vector<std::string> links =
        link_columns(r.links ? *r.links : none, [](const CollLink& l) { return l.between_switches; });
    std::vector<std::string> out{r.algo, r.proto, std::to_string(r.channels), r.model};
    if (r.hang) out.insert(out.end(), {"", "", "", "yes"});
    else
        out.insert(out.end(), {number(static_cast<double>(r.time.ps()) / 1e6, 2), number(r.algbw_GBps, 2),
                               number(r.busbw_GBps, 2), "no"});
    out.insert(out.end(), links.begin(), links.end());
    return out;
}

std::vector<std::string> replay_metrics(const PointValues& v) {
    ReplayCliOptions o;
    o.topology = v.get("topology");
    o.settings = v.settings;
    o.trace = v.get("trace");
    o.calibration = v.get("calibration");
    o.model = v.get("model", o.model);
    o.faults = v.get("faults");
    o.seed = seed_value(v, o.seed);
    o.choice_given = {true, true, true};
    o.follow_environment = false;
    o.progress.quiet = true;
    const Topology topo = load_cli_topology(o.topology, o.settings);
    const ReplayInputs in = load_replay_inputs(o, topo);
    const ReplayResult r = replay(topo, in.trace, in.options());
    const StepMetrics m = step_metrics(in.trace, r);
    std::vector<std::string> out;
    if (r.hang) out = {"", "", "", "", std::to_string(r.collectives.size()), "yes"};
    else
        out = {number(static_cast<double>(m.step_time.ps()) / 1e6, 2), number(m.average.compute, 4),
               number(m.average.exposed_comm, 4), number(m.average.idle, 4), std::to_string(r.collectives.size()), "no"};
    const std::vector<std::string> links =
        link_columns(busiest_links(topo, r, std::numeric_limits<std::size_t>::max()),
                     [&](const LinkUsage& l) { return between_network_switches(topo, l.channel); });
    out.insert(out.end(), links.begin(), links.end());
    return out;
}

std::vector<std::string> plan_metrics(const PointValues& v) {
    PlanCliOptions o;
    o.model = v.get("model");
    o.topology = v.get("topology");
    o.settings = v.settings;
    o.calibration = v.get("calibration");
    for (const auto& [name, value] : v.value)
        if (name != "model" && name != "topology" && name != "calibration" &&
            !set_plan_layout_option(o, name, value, option_of(name)))
            throw InputError(v.where.at(option_of(name)), "parameters." + name, "a plan layout option", name);
    const PlanResult p = plan_training(o);
    const double gib = static_cast<double>(p.memory.total()) / (1024.0 * 1024 * 1024);
    if (!p.memory.fits()) return {"no", number(gib, 2), "", "", "", "", ""};
    double exposed = 0;
    for (const CommLine& c : p.communication) exposed += c.exposed;
    return {"yes",
            number(gib, 2),
            number(p.step * 1e6, 2),
            number(p.tokens_per_s, 1),
            number(p.mfu, 4),
            number(p.step > 0 ? p.bubble / p.step : 0, 4),
            number(p.step > 0 ? exposed / p.step : 0, 4)};
}

}  // namespace

std::vector<std::string> sweep_point_values(const SweepSpec& spec, const SweepPoint& point) {
    std::vector<std::string> out;
    for (std::size_t j = 0; j < spec.parameters.size(); ++j) out.push_back(spec.parameters[j].values[point.choice[j]]);
    return out;
}

std::vector<std::string> run_sweep_point(const SweepSpec& spec, const SweepPoint& point) {
    const PointValues v = values_of(spec, point);
    // Errors of the command line (an option, a --set) belong at the spec's
    // value that gave it; a file's own errors already name that file.
    auto placed = [&](const InputError& e) {
        if (e.where().line > 0) return e;
        const bool setting = e.where().file.starts_with("--set");
        const auto it = v.where.find(setting ? "--set" : e.field());
        if (it == v.where.end()) return e;
        const std::string field = setting ? fmt::format("{} {}", e.where().file, e.field()) : e.field();
        return InputError(it->second, fmt::format("point {} {}", point.index, field), e.expected(), e.found());
    };
    try {
        switch (spec.command) {
            case SweepCommand::coll: return coll_metrics(v);
            case SweepCommand::replay: return replay_metrics(v);
            case SweepCommand::plan: return plan_metrics(v);
        }
        return {};
    } catch (const InputErrors& e) {
        std::vector<InputError> all;
        for (const InputError& one : e.errors()) all.push_back(placed(one));
        throw InputErrors(all);
    } catch (const InputError& e) {
        throw placed(e);
    }
}

}  // namespace collsim
