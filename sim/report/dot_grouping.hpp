#pragma once
// The vertices of a collapsed topology drawing that are alike -- of the same
// kind, with links of the same kinds, counts and bandwidths to the same
// vertices (the nodes of one scalable unit under their rail leaves; the spines
// of one rail) -- drawn as one vertex, "node0 .. node31" of "32 x dgx-h100",
// and again until no two are alike. Graphviz's dot lays out a few hundred
// vertices in seconds, but the 3,328 vertices and 36,864 edges of a 2,048-node
// cluster with one vertex per node not in minutes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace collsim {

struct DotVertex {
    std::string kind;   // the label's second line: "dgx-h100 (24 devices)", "network_switch"
    std::string shape;  // Graphviz's
    std::vector<std::string> members;  // names, in the topology's order; the first is the vertex's id
};

struct DotEdge {
    std::size_t a = 0, b = 0;  // vertex indexes, a < b
    std::string kind;          // the links' kind
    std::size_t count = 0;     // links bundled
    int64_t bps = 0;           // their bandwidth together
};

struct DotGraph {
    std::vector<DotVertex> vertices;
    std::vector<DotEdge> edges;
};

// `g` with alike vertices merged (members joined, edges summed), to a fixed point.
DotGraph group_alike(DotGraph g);

// Where grouping alike vertices leaves too many (16,384 nodes: a leaf per rail
// and scalable unit, each under its own unit), vertices in the same place of
// the structure are merged: same kind, and neighbours that are themselves in
// the same places (colour refinement); links inside a merged vertex are not
// drawn. What is left is the structure's tiers: nodes, leaves per rail, spines.
DotGraph group_by_role(DotGraph g);

}  // namespace collsim
