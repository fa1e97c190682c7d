#include "algorithms/node_trees.hpp"

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

std::vector<int> node_tree_parents(int m, int which) {
    std::vector<int> pos_parent(static_cast<std::size_t>(m), -1);
    in_order(0, m - 1, -1, pos_parent);
    std::vector<int> parent(static_cast<std::size_t>(m), -1);
    for (int node = 0; node < m; ++node) {
        const int pp = pos_parent[static_cast<std::size_t>(wrap(node - which, m))];
        parent[static_cast<std::size_t>(node)] = pp < 0 ? -1 : wrap(pp + which, m);
    }
    return parent;
}

}  // namespace collsim
