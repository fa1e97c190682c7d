#include "sim/report/topo_dot.hpp"

#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sim/report/dot_grouping.hpp"

namespace collsim {

namespace {
// A quoted DOT id; a line break in `s` becomes DOT's \n (an escaped
// backslash would print a literal "\n" in the label).
std::string dot_id(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '\n') {
            out += "\\n";
            continue;
        }
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

// Three significant figures, without an exponent: 21.3GB/s, 450GB/s, 3600GB/s.
std::string bandwidth_label(int64_t bps) {
    const double gb = static_cast<double>(bps) / 1e9;
    std::string s = fmt::format("{:.{}f}", gb, gb >= 100 ? 0 : gb >= 10 ? 1 : 2);
    if (s.find('.') != std::string::npos) {
        s.erase(s.find_last_not_of('0') + 1);
        if (s.back() == '.') s.pop_back();
    }
    return s + "GB/s";
}

// Past this many vertices, alike ones are drawn as one (dot_grouping.hpp):
// about what fits a page and what dot lays out in a few seconds.
constexpr std::size_t kDrawableVertices = 256;

// One vertex per device, or per node instance.
DotGraph collapsed_graph(const Topology& topo) {
    DotGraph g;
    std::vector<std::size_t> vertex_of(topo.devices().size());
    std::size_t next_instance = 0;
    for (DeviceId d = 0; d < topo.devices().size(); ++d) {
        const Device& dev = topo.device(d);
        if (next_instance < topo.instances().size() && d >= topo.instances()[next_instance].first) {
            const Instance& inst = topo.instances()[next_instance++];
            g.vertices.push_back(DotVertex{fmt::format("{} ({} devices)", inst.template_name, inst.size), "box3d", {inst.name}});
            for (DeviceId m = inst.first; m < inst.first + inst.size; ++m) vertex_of[m] = g.vertices.size() - 1;
            d = inst.first + inst.size - 1;
            continue;
        }
        g.vertices.push_back(DotVertex{std::string(to_string(dev.kind)), shape(dev.kind), {dev.name}});
        vertex_of[d] = g.vertices.size() - 1;
    }
    // Parallel links between two vertices are one edge; those inside one are not drawn.
    std::map<std::tuple<std::size_t, std::size_t, std::string>, std::size_t> edge_of;
    for (const Link& l : topo.links()) {
        const std::size_t a = vertex_of[l.a], b = vertex_of[l.b];
        if (a == b) continue;
        const auto [it, added] = edge_of.try_emplace(std::make_tuple(std::min(a, b), std::max(a, b), std::string(to_string(l.kind))),
                                                     g.edges.size());
        if (added) g.edges.push_back(DotEdge{std::min(a, b), std::max(a, b), std::string(to_string(l.kind)), 0, 0});
        ++g.edges[it->second].count;
        g.edges[it->second].bps += l.bandwidth.bps();
    }
    return g;
}

std::string render_graph(const std::string& name, const DotGraph& g) {
    std::string out = fmt::format("graph {} {{\n  node [fontsize=10];\n", dot_id(name));
    for (const DotVertex& v : g.vertices) {
        const std::string label = v.members.size() == 1
                                      ? fmt::format("{}\n{}", v.members.front(), v.kind)
                                      : fmt::format("{} .. {}\n{} x {}", v.members.front(), v.members.back(),
                                                    v.members.size(), v.kind);
        out += fmt::format("  {} [shape={}, label={}];\n", dot_id(v.members.front()), v.shape, dot_id(label));
    }
    for (const DotEdge& e : g.edges) {
        const std::string& a = g.vertices[e.a].members.front();
        const std::string& b = g.vertices[e.b].members.front();
        const std::string label = e.count == 1 ? fmt::format("{} {}", e.kind, bandwidth_label(e.bps))
                                               : fmt::format("{} x{} {}", e.kind, e.count, bandwidth_label(e.bps));
        out += fmt::format("  {} -- {} [label={}];\n", dot_id(std::min(a, b)), dot_id(std::max(a, b)), dot_id(label));
    }
    return out + "}\n";
}
}  // namespace

std::string render_dot(const Topology& topo, bool collapse) {
    if (collapse) {
        DotGraph g = collapsed_graph(topo);
        if (g.vertices.size() > kDrawableVertices) g = group_alike(std::move(g));
        if (g.vertices.size() > kDrawableVertices) g = group_by_role(std::move(g));
        return render_graph(topo.name(), g);
    }
    std::string out = fmt::format("graph {} {{\n  node [fontsize=10];\n", dot_id(topo.name()));
    for (const Device& dev : topo.devices())
        out += fmt::format("  {} [shape={}, label={}];\n", dot_id(dev.name), shape(dev.kind),
                           dot_id(fmt::format("{}\n{}", dev.name, to_string(dev.kind))));
    for (const Link& l : topo.links())
        out += fmt::format("  {} -- {} [label={}];\n", dot_id(topo.device(l.a).name), dot_id(topo.device(l.b).name),
                           dot_id(fmt::format("{} {}", to_string(l.kind), bandwidth_label(l.bandwidth.bps()))));
    return out + "}\n";
}

}  // namespace collsim
