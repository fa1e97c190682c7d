#include "algorithms/node_trees.hpp"

#include <algorithm>

#include "algorithms/chunking.hpp"

namespace collsim {

namespace {
// Parent of each position in an in-order balanced binary tree over [lo, hi].
void in_order(int lo, int hi, int parent, std::vector<int>& out) {
    if (lo > hi) return;
    const int mid = (lo + hi) / 2;
    out[static_cast<std::size_t>(mid)] = parent;
    in_order(lo, mid - 1, mid, out);
    in_order(mid + 1, hi, mid, out);
}
}  // namespace

NodeTree node_tree(int m, int which) {
    const auto um = static_cast<std::size_t>(m);
    std::vector<int> pos_parent(um, -1);
    in_order(0, m - 1, -1, pos_parent);
    NodeTree t;
    t.parent.assign(um, -1);
    t.children.assign(um, {});
    for (int node = 0; node < m; ++node) {
        const int pp = pos_parent[static_cast<std::size_t>(wrap(node - which, m))];
        t.parent[static_cast<std::size_t>(node)] = pp < 0 ? -1 : wrap(pp + which, m);
    }
    for (int node = 0; node < m; ++node)
        if (const int p = t.parent[static_cast<std::size_t>(node)]; p >= 0) t.children[static_cast<std::size_t>(p)].push_back(node);
        else t.order.push_back(node);
    std::vector<int> level(um, 0);
    for (std::size_t i = 0; i < t.order.size(); ++i)
        for (int c : t.children[static_cast<std::size_t>(t.order[i])]) {
            level[static_cast<std::size_t>(c)] = level[static_cast<std::size_t>(t.order[i])] + 1;
            t.depth = std::max(t.depth, level[static_cast<std::size_t>(c)]);
            t.order.push_back(c);
        }
    return t;
}

}  // namespace collsim
