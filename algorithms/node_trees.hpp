#pragma once
// NCCL's two complementary binary trees over servers (the double binary
// tree): the servers sit at positions 0..m-1 of an in-order balanced binary
// tree; tree 0 puts server x at position x, tree 1 at position x-1, so even
// and odd servers swap leaf and inner roles and every server sends and
// receives about the same over both trees.
#include <vector>

namespace collsim {

// Parent server of each server in tree `which` (0 or 1) over m servers; -1 at the root.
std::vector<int> node_tree_parents(int m, int which);

}  // namespace collsim
