#include "sim/faults/fault_plan.hpp"

#include <array>
#include <utility>

#include <fmt/format.h>

#include "sim/core/name_table.hpp"
#include "sim/core/text_file.hpp"
#include "sim/core/yaml_fields.hpp"

namespace collsim {

namespace {
constexpr NameTable<FaultKind, 6> kKinds{{
    {"down", FaultKind::down},
    {"degrade", FaultKind::degrade},
    {"flap", FaultKind::flap},
    {"slow", FaultKind::slow},
    {"pause", FaultKind::pause},
    {"straggler", FaultKind::straggler},
}};

std::optional<double> fraction(YamlFields& f, const YAML::Node& n, const std::string& path, const char* key,
                               double lo, double hi, bool lo_open, bool required, const char* expected) {
    auto s = f.string(n, path, key, required);
    if (!s) return std::nullopt;
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(*s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    // Written as "inside the range" so that nan, which compares false with
    // everything, fails it.
    const bool inside = v <= hi && (lo_open ? v > lo : v >= lo);
    if (used == 0 || used != s->size() || !inside) {
        f.error(n[key], path + "." + key, expected, describe_node(n[key]));
        return std::nullopt;
    }
    return v;
}

void resolve(YamlFields& f, const YAML::Node& n, const std::string& path, Fault& fault, const Topology& topo) {
    const std::size_t sep = fault.target.find("--");
    if (sep != std::string::npos) {
        const std::string a = fault.target.substr(0, sep), b = fault.target.substr(sep + 2);
        for (LinkId l = 0; l < topo.links().size(); ++l) {
            const std::string& x = topo.device(topo.link(l).a).name;
            const std::string& y = topo.device(topo.link(l).b).name;
            if ((glob_match(a, x) && glob_match(b, y)) || (glob_match(a, y) && glob_match(b, x))) fault.links.push_back(l);
        }
    } else {
        for (DeviceId d = 0; d < topo.devices().size(); ++d) {
            if (!glob_match(fault.target, topo.device(d).name)) continue;
            const bool gpu = topo.device(d).kind == DeviceKind::gpu;
            if (fault.on_links() || (fault.kind == FaultKind::straggler && !gpu)) {
                for (LinkId l = 0; l < topo.links().size(); ++l)
                    if (topo.link(l).a == d || topo.link(l).b == d) fault.links.push_back(l);
            } else if (gpu) {
                fault.gpus.push_back(d);
            }
        }
    }
    if (!fault.on_links() && fault.kind != FaultKind::straggler && sep != std::string::npos)
        f.error(n["target"], path + ".target", "GPU names for a compute fault", fmt::format("the link '{}'", fault.target));
    else if (fault.links.empty() && fault.gpus.empty())
        f.error(n["target"], path + ".target",
                fault.on_links() || fault.kind == FaultKind::straggler
                    ? "a device name or link A--B in the topology (globs allowed)"
                    : "names of GPUs in the topology (globs allowed)",
                fmt::format("'{}', which matches nothing in {}", fault.target, topo.name()));
}

std::optional<Fault> read_fault(YamlFields& f, const YAML::Node& n, const std::string& path, const Topology& topo) {
    if (!f.expect_map(n, path)) return std::nullopt;
    f.check_keys(n, path, {"kind", "target", "at", "for", "bandwidth", "latency", "period", "duty", "factor", "per", "p",
                           "min", "max"});
    Fault fault;
    fault.where = f.at(n);
    auto kind = f.string(n, path, "kind", true);
    auto target = f.string(n, path, "target", true);
    bool ok = kind && target;
    if (kind) {
        const std::optional<FaultKind> known = value_in(kKinds, *kind);
        if (known) fault.kind = *known;
        if (!known) {
            f.error(n["kind"], path + ".kind", "one of down, degrade, flap, slow, pause, straggler", describe_node(n["kind"]));
            ok = false;
        }
    }
    fault.at = f.time(n, path, "at", false).value_or(Time{});
    fault.duration = f.time(n, path, "for", false);
    if (!ok) return std::nullopt;
    fault.target = *target;
    switch (fault.kind) {
        case FaultKind::down:
        case FaultKind::pause: break;
        case FaultKind::degrade: {
            fault.bandwidth_factor = fraction(f, n, path, "bandwidth", 0, 1, true, false,
                                              "a bandwidth factor in (0, 1], like 0.5").value_or(1.0);
            fault.added_latency = f.time(n, path, "latency", false).value_or(Time{});
            if (!n["bandwidth"] && !n["latency"])
                f.error(n, path, "a degrade with bandwidth (a factor) and/or latency (added)", "neither");
            break;
        }
        case FaultKind::flap: {
            auto period = f.time(n, path, "period", true);
            if (period && *period <= Time{}) f.error(n["period"], path + ".period", "a positive period", describe_node(n["period"]));
            fault.period = period.value_or(Time{});
            fault.duty = fraction(f, n, path, "duty", 0, 1, true, false, "the share of each period the link is up, in (0, 1)")
                             .value_or(0.5);
            if (fault.duty >= 1.0) f.error(n["duty"], path + ".duty", "the share of each period the link is up, in (0, 1)", describe_node(n["duty"]));
            break;
        }
        case FaultKind::slow:
            fault.factor = fraction(f, n, path, "factor", 1, 1000, false, true, "a slowdown factor of at least 1, like 1.3")
                               .value_or(1.0);
            break;
        case FaultKind::straggler: {
            fault.probability = fraction(f, n, path, "p", 0, 1, true, true, "a probability in (0, 1]").value_or(0);
            fault.min_factor = fraction(f, n, path, "min", 1, 1000, false, true, "a slowdown factor of at least 1").value_or(1);
            fault.max_factor = fraction(f, n, path, "max", 1, 1000, false, true, "a slowdown factor of at least 1").value_or(1);
            if (fault.max_factor < fault.min_factor)
                f.error(n["max"], path + ".max", fmt::format("a factor no smaller than min ({})", fault.min_factor), describe_node(n["max"]));
            fault.per = f.string(n, path, "per", false).value_or("step");
            if (fault.per != "step" && fault.per != "collective")
                f.error(n["per"], path + ".per", "step or collective", describe_node(n["per"]));
            break;
        }
    }
    resolve(f, n, path, fault, topo);
    return fault;
}
}  // namespace

std::string_view to_string(FaultKind k) { return name_in(kKinds, k, "fault"); }

bool glob_match(std::string_view p, std::string_view t) {
    std::size_t pi = 0, ti = 0, star = std::string_view::npos, mark = 0;
    while (ti < t.size()) {
        if (pi < p.size() && (p[pi] == '?' || p[pi] == t[ti])) {
            ++pi, ++ti;
        } else if (pi < p.size() && p[pi] == '*') {
            star = pi++;
            mark = ti;
        } else if (star != std::string_view::npos) {
            pi = star + 1;
            ti = ++mark;
        } else {
            return false;
        }
    }
    while (pi < p.size() && p[pi] == '*') ++pi;
    return pi == p.size();
}

FaultPlan parse_fault_plan(const std::string& yaml, const std::string& name, const Topology& topo) {
    const YAML::Node root = load_yaml_text(yaml, name);
    YamlFields f(name);
    FaultPlan plan;
    plan.source = name;
    if (!f.expect_map(root, "faults file")) f.throw_if_errors();
    f.check_keys(root, "faults file", {"faults"});
    const YAML::Node list = root["faults"];
    if (!list) f.error(root, "faults", "a list of faults (required)", "no such field");
    else if (f.expect_sequence(list, "faults"))
        for (std::size_t i = 0; i < list.size(); ++i)
            if (auto fault = read_fault(f, list[i], fmt::format("faults[{}]", i), topo)) plan.faults.push_back(*fault);
    f.throw_if_errors();
    return plan;
}

FaultPlan load_fault_plan(const std::string& path, const Topology& topo) {
    return parse_fault_plan(read_text_file(path), path, topo);
}

}  // namespace collsim
