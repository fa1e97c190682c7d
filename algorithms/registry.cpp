#include <algorithm>

#include "algorithms/algorithm.hpp"

namespace collsim {

bool AlgorithmInfo::supports(CollOp op) const { return std::find(ops.begin(), ops.end(), op) != ops.end(); }

const std::vector<AlgorithmInfo>& algorithm_registry() {
    static const std::vector<AlgorithmInfo> registry{ring_algorithm()};
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

Bytes piece(Bytes total, int parts, int index) {
    const int64_t base = total.count() / parts, extra = total.count() % parts;
    return Bytes(base + (index < extra ? 1 : 0));
}

}  // namespace collsim
