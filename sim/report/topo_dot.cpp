#include "sim/report/topo_dot.hpp"

#include <map>
#include <tuple>

#include <fmt/format.h>

namespace collsim {

namespace {
std::string dot_id(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

const char* shape(DeviceKind k) {
    switch (k) {
        case DeviceKind::gpu: return "box";
        case DeviceKind::nvswitch:
        case DeviceKind::network_switch: return "diamond";
        case DeviceKind::pcie_switch: return "hexagon";
        case DeviceKind::root_complex: return "octagon";
        case DeviceKind::nic: return "ellipse";
    }
    return "ellipse";
}

std::string bandwidth_label(int64_t bps) { return fmt::format("{:g}GB/s", static_cast<double>(bps) / 1e9); }
}  // namespace

std::string render_dot(const Topology& topo, bool collapse) {
    const std::size_t n = topo.devices().size();
    // Vertex per device, or per instance when collapsing.
    std::vector<std::string> vertex(n);
    for (DeviceId d = 0; d < n; ++d) vertex[d] = topo.device(d).name;
    if (collapse)
        for (const Instance& inst : topo.instances())
            for (DeviceId d = inst.first; d < inst.first + inst.size; ++d) vertex[d] = inst.name;

    std::string out = fmt::format("graph {} {{\n  node [fontsize=10];\n", dot_id(topo.name()));
    std::size_t next_instance = 0;
    for (DeviceId d = 0; d < n; ++d) {
        const Device& dev = topo.device(d);
        if (collapse && next_instance < topo.instances().size() && d >= topo.instances()[next_instance].first) {
            const Instance& inst = topo.instances()[next_instance++];
            out += fmt::format("  {} [shape=box3d, label={}];\n", dot_id(inst.name),
                               dot_id(fmt::format("{}\\n{} ({} devices)", inst.name, inst.template_name, inst.size)));
            d = inst.first + inst.size - 1;
            continue;
        }
        out += fmt::format("  {} [shape={}, label={}];\n", dot_id(dev.name), shape(dev.kind),
                           dot_id(fmt::format("{}\\n{}", dev.name, to_string(dev.kind))));
    }
    if (!collapse) {
        for (const Link& l : topo.links())
            out += fmt::format("  {} -- {} [label={}];\n", dot_id(vertex[l.a]), dot_id(vertex[l.b]),
                               dot_id(fmt::format("{} {}", to_string(l.kind), bandwidth_label(l.bandwidth.bps()))));
        return out + "}\n";
    }
    // Merge parallel links between the same two vertices; drop those inside one.
    struct Bundle {
        std::size_t count = 0;
        int64_t bps = 0;
    };
    std::map<std::tuple<std::string, std::string, std::string>, Bundle> bundles;
    std::vector<std::tuple<std::string, std::string, std::string>> order;
    for (const Link& l : topo.links()) {
        if (vertex[l.a] == vertex[l.b]) continue;
        auto key = std::make_tuple(std::min(vertex[l.a], vertex[l.b]), std::max(vertex[l.a], vertex[l.b]),
                                   std::string(to_string(l.kind)));
        auto [it, added] = bundles.try_emplace(key);
        if (added) order.push_back(key);
        ++it->second.count;
        it->second.bps += l.bandwidth.bps();
    }
    for (const auto& key : order) {
        const Bundle& b = bundles.at(key);
        const auto& [a, c, kind] = key;
        const std::string label = b.count == 1 ? fmt::format("{} {}", kind, bandwidth_label(b.bps))
                                               : fmt::format("{} x{} {}", kind, b.count, bandwidth_label(b.bps));
        out += fmt::format("  {} -- {} [label={}];\n", dot_id(a), dot_id(c), dot_id(label));
    }
    return out + "}\n";
}

}  // namespace collsim
