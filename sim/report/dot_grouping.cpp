#include "sim/report/dot_grouping.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace collsim {

namespace {
// A vertex's links: (other vertex, kind, count, bandwidth), sorted.
using Links = std::vector<std::tuple<std::size_t, std::string, std::size_t, int64_t>>;

std::vector<Links> links_of(const DotGraph& g) {
    std::vector<Links> links(g.vertices.size());
    for (const DotEdge& e : g.edges) {
        links[e.a].emplace_back(e.b, e.kind, e.count, e.bps);
        links[e.b].emplace_back(e.a, e.kind, e.count, e.bps);
    }
    for (Links& l : links) std::sort(l.begin(), l.end());
    return links;
}
}  // namespace

DotGraph group_alike(DotGraph g) {
    // Each round merges vertices alike in the last one's graph; merging the
    // nodes under a leaf can make the leaves alike in the next. Alike vertices
    // are never linked to each other (each would be in its own links), so a
    // merge makes no self-loop.
    for (;;) {
        const std::vector<Links> links = links_of(g);
        std::map<std::tuple<std::string, std::string, Links>, std::size_t> group_of;
        std::vector<std::size_t> group(g.vertices.size());
        std::vector<DotVertex> merged;
        for (std::size_t v = 0; v < g.vertices.size(); ++v) {
            DotVertex& vertex = g.vertices[v];
            const auto [it, added] = group_of.try_emplace(std::make_tuple(vertex.kind, vertex.shape, links[v]), merged.size());
            if (added) merged.push_back(DotVertex{vertex.kind, vertex.shape, {}});
            group[v] = it->second;
            auto& members = merged[it->second].members;
            members.insert(members.end(), std::make_move_iterator(vertex.members.begin()),
                           std::make_move_iterator(vertex.members.end()));
        }
        if (merged.size() == g.vertices.size()) {
            for (std::size_t v = 0; v < merged.size(); ++v) g.vertices[v].members = std::move(merged[v].members);
            return g;
        }
        std::map<std::tuple<std::size_t, std::size_t, std::string>, std::pair<std::size_t, int64_t>> bundles;
        for (const DotEdge& e : g.edges) {
            auto& [count, bps] = bundles[std::make_tuple(std::min(group[e.a], group[e.b]), std::max(group[e.a], group[e.b]), e.kind)];
            count += e.count;
            bps += e.bps;
        }
        g.vertices = std::move(merged);
        g.edges.clear();
        for (const auto& [key, sum] : bundles)
            g.edges.push_back(DotEdge{std::get<0>(key), std::get<1>(key), std::get<2>(key), sum.first, sum.second});
    }
}

}  // namespace collsim
