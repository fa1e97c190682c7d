#include "sim/plan/rank_groups.hpp"

namespace collsim {

namespace {
std::vector<int> strided(int count, int stride) {
    std::vector<int> g;
    for (int i = 0; i < count; ++i) g.push_back(i * stride);
    return g;
}
}  // namespace

RankGroups rank_groups(const Layout& l) {
    RankGroups g;
    g.tp = strided(l.tp, 1);
    g.cp = strided(l.cp, l.tp);
    g.dp = strided(l.dp, l.tp * l.cp);
    g.dp_cp = strided(l.dp * l.cp, l.tp);
    g.ep = strided(l.ep, l.tp * l.cp);
    g.expert_dp = strided(l.dp / l.ep, l.tp * l.cp * l.ep);
    if (l.pp > 1) g.pp_pair = {0, l.tp * l.cp * l.dp};
    return g;
}

}  // namespace collsim
