#include "sim/faults/link_stragglers.hpp"

#include <algorithm>
#include <cmath>

#include "sim/faults/straggler_draw.hpp"

namespace collsim {

LinkStragglers::LinkStragglers(const FaultPlan& plan, uint64_t seed) : seed_(seed) {
    // Keys continue the plan's numbering of faults (ComputeFaults uses position + 1).
    for (std::size_t k = 0; k < plan.faults.size(); ++k)
        if (plan.faults[k].kind == FaultKind::straggler && !plan.faults[k].links.empty())
            faults_.emplace_back(&plan.faults[k], k + 1);
}

void LinkStragglers::apply(Network& net, ResourceId r, const Slowed& s) const {
    double factor = 1.0;
    for (double f : s.factors) factor *= f;
    net.set_capacity(r, Bandwidth::bytes_per_s(std::llround(static_cast<double>(s.base.bps()) / factor)));
}

void LinkStragglers::begin(Network& net, uint32_t run, int step) {
    for (const auto& [f, key] : faults_) {
        const uint64_t at = f->per == "collective" ? run : static_cast<uint64_t>(step);
        const double factor = straggler_draw(*f, seed_, key, {at});
        if (factor == 1.0) continue;
        for (LinkId l : f->links)
            for (ResourceId r : {2 * l, 2 * l + 1}) {
                auto it = slowed_.try_emplace(r, Slowed{net.capacity(r), {}}).first;
                it->second.factors.push_back(factor);
                apply(net, r, it->second);
                by_run_[run].emplace_back(r, factor);
            }
    }
}

void LinkStragglers::end(Network& net, uint32_t run) {
    auto it = by_run_.find(run);
    if (it == by_run_.end()) return;
    for (const auto& [r, factor] : it->second) {
        Slowed& s = slowed_.at(r);
        s.factors.erase(std::find(s.factors.begin(), s.factors.end(), factor));
        apply(net, r, s);
        if (s.factors.empty()) slowed_.erase(r);
    }
    by_run_.erase(it);
}

}  // namespace collsim
