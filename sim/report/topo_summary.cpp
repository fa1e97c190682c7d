#include "sim/report/topo_summary.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/hw/analysis.hpp"

namespace collsim {

namespace {
constexpr const char* kLevels[] = {"nvlink", "pcie", "network"};

double gb(int64_t bps) { return static_cast<double>(bps) / 1e9; }

std::string level_of(LinkKind k) {
    switch (k) {
        case LinkKind::nvlink:
        case LinkKind::xgmi: return "nvlink";
        case LinkKind::network: return "network";
        case LinkKind::pcie:
        case LinkKind::cpu: return "pcie";
    }
    return "pcie";
}

void injection(const Topology& topo, TopoSummary& s) {
    const std::size_t n = topo.devices().size();
    // Group = template instance; devices outside every instance form one more.
    const auto rest = static_cast<uint32_t>(topo.instances().size());
    std::vector<uint32_t> group(n, rest);
    for (uint32_t i = 0; i < topo.instances().size(); ++i) {
        const Instance& inst = topo.instances()[i];
        std::fill(group.begin() + inst.first, group.begin() + inst.first + inst.size, i);
    }
    std::vector<int64_t> nic_bps(rest + 1, 0), gpus_in(rest + 1, 0);
    std::vector<std::map<std::string, int64_t>> own(n);
    for (const Link& l : topo.links()) {
        for (DeviceId d : {l.a, l.b}) {
            const DeviceKind k = topo.device(d).kind;
            if (k == DeviceKind::gpu) own[d][level_of(l.kind)] += l.bandwidth.bps();
            if (k == DeviceKind::nic && l.kind == LinkKind::network) nic_bps[group[d]] += l.bandwidth.bps();
        }
    }
    for (DeviceId g : topo.gpus()) ++gpus_in[group[g]];
    for (const char* level : kLevels) {
        int64_t lo = INT64_MAX, hi = 0;
        for (DeviceId g : topo.gpus()) {
            int64_t v = own[g][level];
            if (std::string_view(level) == "network") v += nic_bps[group[g]] / gpus_in[group[g]];
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        s.injection_min_GBps[level] = gb(lo);
        s.injection_max_GBps[level] = gb(hi);
    }
}

std::string counts(const std::map<std::string, std::size_t>& m) {
    std::string out;
    for (const auto& [k, v] : m) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", k, v);
    return out;
}

// The ratio as built, which is the file's only where every down port is used.
std::string ratio(const FabricTier& t) {
    if (t.up_bps == 0) return "";
    std::string out =
        fmt::format(", oversubscription {:.2f}:1", static_cast<double>(t.down_bps) / static_cast<double>(t.up_bps));
    if (t.down_ports_used < t.down_ports)
        out += fmt::format(" as built ({} in the file; {} of {} down ports used)", t.configured, t.down_ports_used,
                           t.down_ports);
    return out;
}
}  // namespace

TopoSummary summarize(const Topology& topo) {
    TopoSummary s;
    s.name = topo.name();
    s.file = topo.source();
    s.gpus = topo.gpus().size();
    s.instances = topo.instances().size();
    for (const Device& d : topo.devices()) ++s.devices[std::string(to_string(d.kind))];
    for (const Link& l : topo.links()) ++s.links[std::string(to_string(l.kind))];
    injection(topo, s);
    s.bisection_GBps = bisection_bandwidth(topo).gbps();
    s.diameter_hops = gpu_diameter_hops(topo);
    s.fabrics = topo.fabrics();
    return s;
}

std::string render_table(const TopoSummary& s) {
    std::string out = fmt::format("# collsim topo show: {} ({})\n", s.name, s.file);
    out += fmt::format("{:<22}{}\n", "gpus", s.gpus);
    if (s.instances > 0) out += fmt::format("{:<22}{}\n", "node instances", s.instances);
    out += fmt::format("{:<22}{}\n", "devices", counts(s.devices));
    out += fmt::format("{:<22}{}\n", "links", counts(s.links));
    for (const char* level : kLevels) {
        const double lo = s.injection_min_GBps.at(level), hi = s.injection_max_GBps.at(level);
        out += fmt::format("{:<22}{:.2f} GB/s{}\n", fmt::format("injection/GPU {}", level), lo,
                           lo == hi ? "" : fmt::format(" (up to {:.2f})", hi));
    }
    out += fmt::format("{:<22}{:.2f} GB/s\n", "bisection bandwidth", s.bisection_GBps);
    out += fmt::format("{:<22}{} hops\n", "diameter", s.diameter_hops);
    for (const auto& f : s.fabrics) {
        out += fmt::format("fabric {}: {}, {} plane{}, {} endpoints\n", f.name, f.kind, f.planes,
                           f.planes > 1 ? "s" : "", f.endpoints);
        for (std::size_t i = 0; i < f.tiers.size(); ++i) {
            const FabricTier& t = f.tiers[i];
            out += fmt::format("  tier {} {:<7} {} switches per plane, down {:.2f} GB/s, up {:.2f} GB/s{}\n", i + 1,
                               t.name, t.switches, gb(t.down_bps), gb(t.up_bps), ratio(t));
        }
    }
    return out;
}

std::string render_json(const TopoSummary& s) {
    nlohmann::ordered_json j;
    j["name"] = s.name;
    j["file"] = s.file;
    j["gpus"] = s.gpus;
    j["instances"] = s.instances;
    j["devices"] = s.devices;
    j["links"] = s.links;
    for (const char* level : kLevels) {
        j["injection_GBps"][level] = s.injection_min_GBps.at(level);
        j["injection_max_GBps"][level] = s.injection_max_GBps.at(level);
    }
    j["bisection_bandwidth_GBps"] = s.bisection_GBps;
    j["diameter_hops"] = s.diameter_hops;
    j["fabrics"] = nlohmann::ordered_json::array();
    for (const auto& f : s.fabrics) {
        nlohmann::ordered_json o;
        o["name"] = f.name;
        o["kind"] = f.kind;
        o["planes"] = f.planes;
        o["endpoints"] = f.endpoints;
        o["tiers"] = nlohmann::ordered_json::array();
        for (const FabricTier& t : f.tiers) {
            nlohmann::ordered_json x;
            x["name"] = t.name;
            x["switches"] = t.switches;
            x["down_GBps"] = gb(t.down_bps);
            x["up_GBps"] = gb(t.up_bps);
            if (t.up_bps > 0)
                x["oversubscription"] = static_cast<double>(t.down_bps) / static_cast<double>(t.up_bps);
            else
                x["oversubscription"] = nullptr;
            x["configured_oversubscription"] = t.configured.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(t.configured);
            x["down_ports_used"] = t.down_ports_used;
            x["down_ports"] = t.down_ports;
            o["tiers"].push_back(std::move(x));
        }
        j["fabrics"].push_back(std::move(o));
    }
    return j.dump(2) + "\n";
}

std::string render_csv(const TopoSummary& s) {
    std::string out = "section,key,value\n";
    out += fmt::format("topology,name,{}\ntopology,gpus,{}\ntopology,instances,{}\n", s.name, s.gpus, s.instances);
    for (const auto& [k, v] : s.devices) out += fmt::format("devices,{},{}\n", k, v);
    for (const auto& [k, v] : s.links) out += fmt::format("links,{},{}\n", k, v);
    for (const char* level : kLevels) out += fmt::format("injection_GBps,{},{:.6f}\n", level, s.injection_min_GBps.at(level));
    out += fmt::format("topology,bisection_bandwidth_GBps,{:.6f}\ntopology,diameter_hops,{}\n", s.bisection_GBps,
                       s.diameter_hops);
    for (const auto& f : s.fabrics)
        for (std::size_t i = 0; i < f.tiers.size(); ++i)
            out += fmt::format("fabric {} tier {} {},switches,{}\n", f.name, i + 1, f.tiers[i].name, f.tiers[i].switches);
    return out;
}

}  // namespace collsim
