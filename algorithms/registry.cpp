#include <algorithm>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"

namespace collsim {

bool AlgorithmInfo::supports(CollOp op) const { return std::find(ops.begin(), ops.end(), op) != ops.end(); }

Unavailable AlgorithmInfo::why_not(CollOp op, const CommLayout& comm) const {
    if (!supports(op)) {
        std::string list;
        for (CollOp o : ops) list += (list.empty() ? "" : ", ") + std::string(to_string(o));
        return fmt::format("{} implements {} only", name, list);
    }
    if (requirement) return requirement(op, comm);
    return std::nullopt;
}

const std::vector<AlgorithmInfo>& algorithm_registry() {
    static const std::vector<AlgorithmInfo> registry{
        ring_algorithm(),
        tree_algorithm(),
        rhd_algorithm(),
        nvls_algorithm(),
        nvls_tree_algorithm(),
        hierarchical_algorithm(),
        collnet_algorithm(),
        sendrecv_algorithm(),
        alltoall_direct_algorithm(),
        alltoall_pairwise_algorithm(),
    };
    return registry;
}

const AlgorithmInfo* find_algorithm(std::string_view name) {
    for (const auto& a : algorithm_registry())
        if (a.name == name) return &a;
    return nullptr;
}

std::string algorithm_choices() {
    std::string out = "one of";
    const auto& reg = algorithm_registry();
    for (std::size_t i = 0; i < reg.size(); ++i) out += (i ? ", " : " ") + std::string(reg[i].name);
    return out;
}

std::string off_by_default_choices() {
    std::string names;
    for (const AlgorithmInfo& a : algorithm_registry())
        if (!a.enabled_by.empty()) names += fmt::format("{}{} (as {})", names.empty() ? "" : ", ", a.name, a.enabled_by);
    return "an algorithm NCCL leaves off by default: " + names;
}

}  // namespace collsim
