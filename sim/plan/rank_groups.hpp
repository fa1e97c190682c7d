#pragma once
// Which ranks form each communicator's first group under Megatron-core's
// default rank order "tp-cp-ep-dp-pp": TP innermost (consecutive ranks, so
// inside a server when tp divides its GPUs), then CP, then DP (EP carved out
// of its innermost part), PP outermost. Rank r runs on the topology's r-th GPU.
#include <vector>

#include "sim/plan/layout.hpp"

namespace collsim {

struct RankGroups {
    std::vector<int> tp, cp, dp, ep, expert_dp, pp_pair;
    std::vector<int> dp_cp;  // gradients of non-expert weights are reduced over DP x CP
};

RankGroups rank_groups(const Layout& l);

}  // namespace collsim
