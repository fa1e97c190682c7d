#include "sim/sweep/sweep_spec.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/core/limits.hpp"
#include "sim/core/yaml_fields.hpp"

namespace collsim {

namespace {

const std::vector<std::string> kCollParameters{"topology", "op",    "size",        "algo",  "algo_file",
                                               "proto",    "ranks", "channels",    "dtype", "calibration",
                                               "model",    "routing", "faults",    "seed"};
const std::vector<std::string> kReplayParameters{"topology", "trace",  "calibration", "model",
                                                 "routing",  "faults", "seed"};
const std::vector<std::string> kPlanParameters{
    "model", "topology",     "gpus", "tp",  "pp",        "dp",        "ep",      "cp",   "vpp",        "zero",
    "sp",    "micro_batch", "global_batch", "seq", "recompute", "dtype", "overlap", "gpu", "calibration", "tier"};
const std::vector<std::string> kPlanMetrics{"fits",  "memory_GiB",   "step_time_us", "tokens_per_s",
                                            "mfu",   "bubble_share", "exposed_comm_share"};
// What ran is "chosen_": under auto, the tuner's choice.
const std::vector<std::string> kCollMetrics{"chosen_algo", "chosen_proto", "chosen_channels", "tier",
                                            "time_us",     "algbw_GBps",   "busbw_GBps",      "hang",
                                            "busiest_link", "busiest_link_util", "busiest_switch_link",
                                            "busiest_switch_link_util"};
const std::vector<std::string> kReplayMetrics{"step_time_us",        "compute_share",     "exposed_comm_share",
                                              "idle_share",          "collectives",       "hang",
                                              "busiest_link",        "busiest_link_util", "busiest_switch_link",
                                              "busiest_switch_link_util"};

bool is_set_name(const std::string& name) { return name == "set" || name.starts_with("set."); }

// A `set` value: one PATH=VALUE string, or a list of them applied together.
std::optional<std::string> set_value(YamlFields& f, const YAML::Node& v, const std::string& field) {
    std::vector<std::string> settings;
    auto one = [&](const YAML::Node& s) {
        if (!s.IsScalar() || s.Scalar().find('=') == std::string::npos || s.Scalar().find(';') != std::string::npos) {
            f.error(s, field, "a setting PATH=VALUE (without ';')", describe_node(s));
            return false;
        }
        settings.push_back(s.Scalar());
        return true;
    };
    if (v.IsSequence()) {
        for (const auto& s : v)
            if (!one(s)) return std::nullopt;
    } else if (!one(v)) {
        return std::nullopt;
    }
    return fmt::format("{}", fmt::join(settings, ";"));
}

void read_parameter(YamlFields& f, const std::string& name, const YAML::Node& node, SweepParameter& out) {
    const std::string field = "parameters." + name;
    // A list is the values, anything else one value; a `set` value may itself
    // be a list of settings applied together.
    const bool list = node.IsSequence();
    std::vector<YAML::Node> items;
    if (list)
        for (const auto& v : node) items.push_back(v);
    else
        items.push_back(node);
    if (items.empty()) f.error(node, field, "a value or a non-empty list of values", "an empty list");
    for (std::size_t i = 0; i < items.size(); ++i) {
        const YAML::Node& v = items[i];
        const std::string item = list ? fmt::format("{}[{}]", field, i) : field;
        std::optional<std::string> value;
        if (name == "set")
            value = set_value(f, v, item);
        else if (v.IsScalar() && !v.Scalar().empty())
            value = v.Scalar();
        else
            f.error(v, item, "a scalar value", describe_node(v));
        if (!value) continue;
        out.values.push_back(*value);
        out.where.push_back(f.at(v));
    }
}

void read_plots(YamlFields& f, const YAML::Node& plots, const std::vector<SweepParameter>& params,
                const std::vector<std::string>& metrics, std::vector<SweepPlot>& out) {
    if (!f.expect_sequence(plots, "plots")) return;
    auto known = [&](const std::string& n) {
        return std::any_of(params.begin(), params.end(), [&](const SweepParameter& p) { return p.name == n; });
    };
    std::vector<std::string> names;
    for (const auto& p : params) names.push_back(p.name);
    for (std::size_t i = 0; i < plots.size(); ++i) {
        const YAML::Node p = plots[i];
        const std::string path = fmt::format("plots[{}]", i);
        if (!f.expect_map(p, path)) continue;
        f.check_keys(p, path, {"metric", "x", "group"});
        SweepPlot plot;
        plot.where = f.at(p);
        plot.metric = f.string(p, path, "metric", true).value_or("");
        plot.x = f.string(p, path, "x", true).value_or("");
        plot.group = f.string(p, path, "group", false).value_or("");
        if (!plot.metric.empty() && std::find(metrics.begin(), metrics.end(), plot.metric) == metrics.end())
            f.error(p["metric"], path + ".metric", fmt::format("a metric: one of {}", fmt::join(metrics, ", ")),
                    plot.metric);
        if (!plot.x.empty() && !known(plot.x))
            f.error(p["x"], path + ".x", fmt::format("a parameter of this spec: one of {}", fmt::join(names, ", ")),
                    plot.x);
        if (!plot.group.empty() && !known(plot.group))
            f.error(p["group"], path + ".group",
                    fmt::format("a parameter of this spec: one of {}", fmt::join(names, ", ")), plot.group);
        out.push_back(plot);
    }
}

}  // namespace

const std::vector<std::string>& sweep_parameter_names(SweepCommand c) {
    return c == SweepCommand::coll ? kCollParameters : c == SweepCommand::replay ? kReplayParameters : kPlanParameters;
}

const std::vector<std::string>& sweep_metric_names(SweepCommand c) {
    return c == SweepCommand::coll ? kCollMetrics : c == SweepCommand::replay ? kReplayMetrics : kPlanMetrics;
}

bool is_sweep_file_value(const SweepSpec& spec, const std::string& parameter, const std::string& value) {
    static const char* const kFileParameters[] = {"topology", "trace", "calibration", "algo_file", "faults"};
    if (parameter == "calibration" && value == "defaults") return false;
    return std::find(std::begin(kFileParameters), std::end(kFileParameters), parameter) != std::end(kFileParameters) ||
           (spec.command == SweepCommand::plan && parameter == "model" &&
            (value.ends_with(".yaml") || value.ends_with(".yml")));
}

std::string sweep_value_as_used(const SweepSpec& spec, const std::string& parameter, const std::string& value) {
    if (!is_sweep_file_value(spec, parameter, value) || !std::filesystem::path(value).is_relative() || spec.folder.empty())
        return value;
    return (std::filesystem::path(spec.folder) / value).lexically_normal().string();
}

SweepSpec read_sweep_spec(const std::string& path) {
    const YAML::Node root = load_yaml_file(path);
    YamlFields f(path);
    SweepSpec spec;
    spec.file = path;
    spec.folder = std::filesystem::path(path).parent_path().string();
    if (!f.expect_map(root, "(top level)")) f.throw_if_errors();
    f.check_keys(root, "", {"command", "mode", "parameters", "plots"});
    if (const auto c = f.string(root, "", "command", false)) {
        if (*c == "replay") spec.command = SweepCommand::replay;
        else if (*c == "plan") spec.command = SweepCommand::plan;
        else if (*c != "coll") f.error(root["command"], "command", "coll, replay or plan", *c);
    }
    if (const auto m = f.string(root, "", "mode", false)) {
        if (*m == "zip") spec.zip = true;
        else if (*m != "grid") f.error(root["mode"], "mode", "grid or zip", *m);
    }
    const YAML::Node params = root["parameters"];
    if (!params) f.error(root, "parameters", "a mapping of parameter names to values", "nothing");
    else if (f.expect_map(params, "parameters")) {
        const auto& allowed = sweep_parameter_names(spec.command);
        for (const auto& kv : params) {
            const std::string name = kv.first.Scalar();
            if (!is_set_name(name) && std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
                f.error(kv.first, "parameters." + name,
                        fmt::format("a parameter: one of {}, set or set.PATH", fmt::join(allowed, ", ")), name);
                continue;
            }
            if (name == "set.") {
                f.error(kv.first, "parameters." + name, "set.PATH with a topology field path", name);
                continue;
            }
            SweepParameter p{name, {}, {}};
            read_parameter(f, name, kv.second, p);
            spec.parameters.push_back(std::move(p));
        }
        const char* required = spec.command == SweepCommand::coll     ? "topology"
                               : spec.command == SweepCommand::replay ? "trace"
                                                                      : "model";
        for (const char* need : {"topology", required})
            if (std::none_of(spec.parameters.begin(), spec.parameters.end(),
                             [&](const SweepParameter& p) { return p.name == need; }))
                f.error(params, fmt::format("parameters.{}", need), "a value or a list of values", "nothing");
    }
    if (spec.zip) {
        std::size_t n = 1;
        for (const auto& p : spec.parameters)
            if (p.values.size() > 1) {
                if (n > 1 && p.values.size() != n)
                    f.error(params[p.name], "parameters." + p.name,
                            fmt::format("{} values, as the other lists of a zip", n), std::to_string(p.values.size()));
                n = std::max(n, p.values.size());
            }
    } else {
        int64_t points = 1;
        for (const auto& p : spec.parameters)
            points = std::min<int64_t>(points * static_cast<int64_t>(std::max<std::size_t>(1, p.values.size())),
                                       limits::kMaxSweepPoints + 1);
        if (points > limits::kMaxSweepPoints)
            f.error(params, "parameters",
                    fmt::format("at most {} points (the sweep point limit)", limits::kMaxSweepPoints),
                    fmt::format("more than {} combinations", limits::kMaxSweepPoints));
    }
    if (const YAML::Node plots = root["plots"])
        read_plots(f, plots, spec.parameters, sweep_metric_names(spec.command), spec.plots);
    f.throw_if_errors();
    return spec;
}

std::vector<SweepPoint> sweep_points(const SweepSpec& spec) {
    std::vector<SweepPoint> out;
    const std::size_t k = spec.parameters.size();
    if (spec.zip) {
        std::size_t n = 1;
        for (const auto& p : spec.parameters) n = std::max(n, p.values.size());
        for (std::size_t i = 0; i < n; ++i) {
            SweepPoint pt{i, std::vector<std::size_t>(k, 0)};
            for (std::size_t j = 0; j < k; ++j) pt.choice[j] = spec.parameters[j].values.size() > 1 ? i : 0;
            out.push_back(std::move(pt));
        }
        return out;
    }
    std::vector<std::size_t> choice(k, 0);
    for (std::size_t i = 0;; ++i) {
        out.push_back(SweepPoint{i, choice});
        // The last parameter varies fastest.
        std::size_t j = k;
        while (j > 0) {
            --j;
            if (++choice[j] < spec.parameters[j].values.size()) break;
            choice[j] = 0;
            if (j == 0) return out;
        }
        if (k == 0) return out;
    }
}

}  // namespace collsim
