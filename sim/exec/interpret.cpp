#include "sim/exec/interpret.hpp"

#include <numeric>

#include "sim/core/random.hpp"

namespace collsim {

std::vector<StepId> index_order(const Schedule& s) {
    std::vector<StepId> order(s.steps.size());
    std::iota(order.begin(), order.end(), StepId{0});
    return order;
}

std::vector<StepId> random_dependency_order(const Schedule& s, uint64_t seed) {
    std::vector<uint32_t> waiting(s.steps.size());
    std::vector<std::vector<StepId>> dependents(s.steps.size());
    std::vector<StepId> ready, order;
    for (StepId i = 0; i < s.steps.size(); ++i) {
        waiting[i] = static_cast<uint32_t>(s.steps[i].deps.size());
        for (StepId d : s.steps[i].deps) dependents[d].push_back(i);
        if (waiting[i] == 0) ready.push_back(i);
    }
    uint64_t rng = seed;
    while (!ready.empty()) {
        const std::size_t pick = static_cast<std::size_t>(splitmix_next(rng) % ready.size());
        const StepId id = ready[pick];
        ready[pick] = ready.back();
        ready.pop_back();
        order.push_back(id);
        for (StepId d : dependents[id])
            if (--waiting[d] == 0) ready.push_back(d);
    }
    return order;  // shorter than the schedule when dependencies form a cycle
}

std::string check_order(const Schedule& s, const std::vector<StepId>& order) {
    std::vector<bool> done(s.steps.size(), false);
    for (StepId id : order) {
        if (id >= s.steps.size() || done[id]) return fmt::format("step {} runs twice or does not exist", id);
        for (StepId d : s.steps[id].deps)
            if (!done[d]) return fmt::format("step {} runs before its dependency {}", id, d);
        done[id] = true;
    }
    if (order.size() != s.steps.size())
        return fmt::format("{} of {} steps never became ready (a dependency cycle)", s.steps.size() - order.size(),
                           s.steps.size());
    return "";
}

}  // namespace collsim
