#include "sim/hw/overrides.hpp"

#include <fmt/format.h>

#include "sim/hw/pcie.hpp"

namespace collsim {

namespace {

void override_devices(YamlFields& f, FragmentBuilder& b, const YAML::Node& n, const std::string& path) {
    f.check_keys(n, path, {"device", "latency", "memory_bandwidth", "in_network_reduction"});
    auto pattern = f.string(n, path, "device", true);
    auto latency = f.time(n, path, "latency", false);
    auto membw = f.bandwidth(n, path, "memory_bandwidth", false);
    auto reduction = f.boolean(n, path, "in_network_reduction", false);
    if (!n["latency"] && !n["memory_bandwidth"] && !n["in_network_reduction"])
        f.error(n, path, "at least one of latency, memory_bandwidth, in_network_reduction to change",
                "only the pattern");
    if (!pattern) return;
    const std::vector<DeviceId> hits = b.match(NameGlob(*pattern));
    if (hits.empty()) {
        f.error(n["device"], path + ".device", "a pattern matching at least one device",
                fmt::format("'{}', which matches nothing", *pattern));
        return;
    }
    for (DeviceId id : hits) {
        const Device& d = b.device(id);
        if (membw && d.kind != DeviceKind::gpu && d.kind != DeviceKind::root_complex) {
            f.error(n["memory_bandwidth"], path + ".memory_bandwidth", "memory_bandwidth only on a gpu or a root_complex",
                    fmt::format("'{}' matching {} '{}'", *pattern, to_string(d.kind), d.name));
            return;
        }
        if (reduction && *reduction && d.kind != DeviceKind::nvswitch && d.kind != DeviceKind::network_switch) {
            f.error(n["in_network_reduction"], path + ".in_network_reduction",
                    "in_network_reduction only on an nvswitch or a switch",
                    fmt::format("'{}' matching {} '{}'", *pattern, to_string(d.kind), d.name));
            return;
        }
    }
    for (DeviceId id : hits) {
        Device& d = b.device(id);
        if (latency) d.forwarding_latency = *latency;
        if (membw) d.memory_bandwidth = *membw;
        if (reduction) d.in_network_reduction = *reduction;
    }
}

void override_links(YamlFields& f, FragmentBuilder& b, const YAML::Node& n, const std::string& path) {
    f.check_keys(n, path, {"link", "bandwidth", "gen", "lanes", "latency"});
    auto latency = f.time(n, path, "latency", false);
    auto bandwidth = f.bandwidth(n, path, "bandwidth", false);
    auto gen = f.integer(n, path, "gen", false);
    auto lanes = f.integer(n, path, "lanes", false);
    bool ok = true;
    if (!n["latency"] && !n["bandwidth"] && !n["gen"] && !n["lanes"]) {
        f.error(n, path, "at least one of bandwidth, gen, lanes, latency to change", "only the link");
        ok = false;
    }
    if (n["bandwidth"] && (n["gen"] || n["lanes"])) {
        f.error(n["bandwidth"], path + ".bandwidth", "either bandwidth or gen + lanes, not both",
                describe_node(n["bandwidth"]));
        ok = false;
    }
    if (gen && !pcie_bandwidth(static_cast<int>(*gen), 1)) {
        f.error(n["gen"], path + ".gen", "a PCIe generation from 1 to 6", describe_node(n["gen"]));
        ok = false;
    }
    if (lanes && !valid_pcie_lanes(static_cast<int>(*lanes))) {
        f.error(n["lanes"], path + ".lanes", "a lane count of 1, 2, 4, 8, 16 or 32", describe_node(n["lanes"]));
        ok = false;
    }
    YAML::Node ends = n["link"];
    if (!ends) {
        f.error(n, path + ".link", "the link's two ends as patterns, like [node3.gpu2, node3.pcie1] (required)",
                "no such field");
        return;
    }
    if (!ends.IsSequence() || ends.size() != 2 || !ends[0].IsScalar() || !ends[1].IsScalar()) {
        f.error(ends, path + ".link", "the link's two ends as patterns, like [node3.gpu2, node3.pcie1]",
                describe_node(ends));
        return;
    }
    if (!ok) return;
    const NameGlob x(ends[0].Scalar()), y(ends[1].Scalar());
    std::vector<LinkId> hits;
    auto& links = b.links();
    for (LinkId i = 0; i < links.size(); ++i) {
        const std::string& a = b.device(links[i].a).name;
        const std::string& c = b.device(links[i].b).name;
        if ((x.matches(a) && y.matches(c)) || (x.matches(c) && y.matches(a))) hits.push_back(i);
    }
    const std::string shown = fmt::format("[{}, {}]", x.pattern(), y.pattern());
    if (hits.empty()) {
        f.error(ends, path + ".link", "patterns matching at least one link", shown + ", which matches no link");
        return;
    }
    const bool by_lanes = gen || lanes;
    for (LinkId i : hits) {
        const Link& l = links[i];
        // A PCIe link given by bandwidth has no lane count to keep: then both are needed.
        if (by_lanes && (l.kind != LinkKind::pcie || (l.pcie_gen == 0 && !(gen && lanes)))) {
            f.error(n[gen ? "gen" : "lanes"], path + (gen ? ".gen" : ".lanes"),
                    "PCIe links given by gen + lanes (or both gen and lanes in the override)",
                    fmt::format("{} matching the {} link {} - {}", shown, to_string(l.kind), b.device(l.a).name,
                                b.device(l.b).name));
            return;
        }
    }
    for (LinkId i : hits) {
        Link& l = links[i];
        if (latency) l.latency = *latency;
        if (bandwidth) {
            l.bandwidth = *bandwidth;
            l.pcie_gen = l.pcie_lanes = 0;
        }
        if (by_lanes) {
            if (gen) l.pcie_gen = static_cast<int>(*gen);
            if (lanes) l.pcie_lanes = static_cast<int>(*lanes);
            l.bandwidth = *pcie_bandwidth(l.pcie_gen, l.pcie_lanes);
        }
    }
}
}  // namespace

void apply_overrides(YamlFields& f, FragmentBuilder& b, const YAML::Node& list, const std::string& path) {
    if (!f.expect_sequence(list, path)) return;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string item = fmt::format("{}[{}]", path, i);
        const YAML::Node n = list[i];
        if (!f.expect_map(n, item)) continue;
        if (n["device"] && !n["link"]) {
            override_devices(f, b, n, item);
        } else if (n["link"] && !n["device"]) {
            override_links(f, b, n, item);
        } else {
            f.error(n, item, "either device: PATTERN or link: [PATTERN, PATTERN]",
                    n["device"] ? "both device and link" : "neither");
        }
    }
}

}  // namespace collsim
