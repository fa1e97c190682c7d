#pragma once
// NCCL's two complementary binary trees over servers (the double binary
// tree): the servers sit at positions 0..m-1 of an in-order balanced binary
// tree; tree 0 puts server x at position x, tree 1 at position x-1, so even
// and odd servers swap leaf and inner roles and every server sends and
// receives about the same over both trees.
#include <vector>

namespace collsim {

// Tree `which` (0 or 1) over m servers.
struct NodeTree {
    std::vector<int> parent;  // -1 at the root
    std::vector<std::vector<int>> children;
    std::vector<int> order;  // parents before children
    int depth = 0;           // hops from the root to the deepest server
};
NodeTree node_tree(int m, int which);

}  // namespace collsim
