#pragma once
// The algorithm registry: each collective algorithm registers its name, what
// it does, the operations it implements and a schedule builder. The CLI's
// choices and input validation come from here.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/exec/collective.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/exec/schedule.hpp"

namespace collsim {

struct AlgorithmInfo {
    std::string_view name;
    std::string_view description;
    std::vector<CollOp> ops;
    NcclFamily family;  // whose NCCL latency figures its steps pay
    std::function<Schedule(const CollectiveCall&)> build;

    bool supports(CollOp op) const;
};

const std::vector<AlgorithmInfo>& algorithm_registry();
const AlgorithmInfo* find_algorithm(std::string_view name);
std::string algorithm_choices();

// Splits `total` into `parts` nearly equal pieces (the first ones one byte
// larger), as NCCL divides a buffer over channels and ranks.
Bytes piece(Bytes total, int parts, int index);

// Each algorithm file provides one of these; the registry lists them.
AlgorithmInfo ring_algorithm();

}  // namespace collsim
