#include "sim/report/dot_grouping.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>
#include <utility>

namespace collsim {

namespace {
// A vertex's links: (other vertex or its colour, kind, count, bandwidth), sorted.
using Links = std::vector<std::tuple<std::size_t, std::string, std::size_t, int64_t>>;

std::vector<Links> links_of(const DotGraph& g, const std::vector<std::size_t>& label) {
    std::vector<Links> links(g.vertices.size());
    for (const DotEdge& e : g.edges) {
        links[e.a].emplace_back(label[e.b], e.kind, e.count, e.bps);
        links[e.b].emplace_back(label[e.a], e.kind, e.count, e.bps);
    }
    for (Links& l : links) std::sort(l.begin(), l.end());
    return links;
}

std::vector<std::size_t> identity(std::size_t n) {
    std::vector<std::size_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = i;
    return v;
}

// Each class of `group` as one vertex, its members in vertex order; links
// between two classes summed into one edge, those inside a class not drawn.
DotGraph quotient(DotGraph g, const std::vector<std::size_t>& group, std::size_t groups) {
    std::vector<DotVertex> merged(groups);
    for (std::size_t v = 0; v < g.vertices.size(); ++v) {
        DotVertex& into = merged[group[v]];
        if (into.members.empty()) into.kind = g.vertices[v].kind, into.shape = g.vertices[v].shape;
        into.members.insert(into.members.end(), std::make_move_iterator(g.vertices[v].members.begin()),
                            std::make_move_iterator(g.vertices[v].members.end()));
    }
    std::map<std::tuple<std::size_t, std::size_t, std::string>, std::pair<std::size_t, int64_t>> bundles;
    for (const DotEdge& e : g.edges) {
        if (group[e.a] == group[e.b]) continue;
        auto& [count, bps] = bundles[std::make_tuple(std::min(group[e.a], group[e.b]), std::max(group[e.a], group[e.b]), e.kind)];
        count += e.count;
        bps += e.bps;
    }
    DotGraph out;
    out.vertices = std::move(merged);
    for (const auto& [key, sum] : bundles)
        out.edges.push_back(DotEdge{std::get<0>(key), std::get<1>(key), std::get<2>(key), sum.first, sum.second});
    return out;
}

// Numbers each distinct key of `key_of(v)` in order of first appearance.
template <class Key>
std::size_t number(std::size_t n, const std::function<Key(std::size_t)>& key_of, std::vector<std::size_t>& out) {
    std::map<Key, std::size_t> ids;
    out.resize(n);
    for (std::size_t v = 0; v < n; ++v) out[v] = ids.try_emplace(key_of(v), ids.size()).first->second;
    return ids.size();
}
}  // namespace

DotGraph group_alike(DotGraph g) {
    // Each round merges vertices alike in the last one's graph; merging the
    // nodes under a leaf can make the leaves alike in the next. Alike vertices
    // are never linked to each other (each would be in its own links), so no
    // link is lost.
    for (;;) {
        const std::vector<Links> links = links_of(g, identity(g.vertices.size()));
        std::vector<std::size_t> group;
        const std::size_t groups = number<std::tuple<std::string, std::string, Links>>(
            g.vertices.size(), [&](std::size_t v) { return std::make_tuple(g.vertices[v].kind, g.vertices[v].shape, links[v]); },
            group);
        if (groups == g.vertices.size()) return g;
        g = quotient(std::move(g), group, groups);
    }
}

DotGraph group_by_role(DotGraph g) {
    // Colour refinement (one-dimensional Weisfeiler-Leman): a colour splits by
    // the colours of its vertices' neighbours until none splits; the partition
    // only gets finer, so an unchanged count of colours is the fixed point.
    std::vector<std::size_t> colour;
    std::size_t colours = number<std::pair<std::string, std::string>>(
        g.vertices.size(), [&](std::size_t v) { return std::make_pair(g.vertices[v].kind, g.vertices[v].shape); }, colour);
    for (;;) {
        const std::vector<Links> links = links_of(g, colour);
        std::vector<std::size_t> next;
        const std::size_t refined = number<std::pair<std::size_t, Links>>(
            g.vertices.size(), [&](std::size_t v) { return std::make_pair(colour[v], links[v]); }, next);
        if (refined == colours) break;
        colours = refined;
        colour = std::move(next);
    }
    return quotient(std::move(g), colour, colours);
}

}  // namespace collsim
