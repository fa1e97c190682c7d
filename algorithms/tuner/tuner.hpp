#pragma once
// Chooses what NCCL would run for a call: among the algorithms collsim
// implements, the (algorithm, protocol) with the least time under NCCL's own
// cost model, and the channels NCCL would launch for that message size.
#include <optional>
#include <string>
#include <vector>

#include "algorithms/tuner/nccl_cost.hpp"

namespace collsim {

struct TunedChoice {
    std::string algo;
    ProtoKind proto = ProtoKind::simple;
    int channels = 1;            // what NCCL launches
    std::string why;             // one line: the choice and the runner-up
    std::vector<NcclCost> costs;  // every candidate, for --explain
};

// `algo` and `proto` are "auto" or fixed; a fixed one narrows the candidates.
// nullopt when nothing implemented is eligible (the caller reports it).
std::optional<TunedChoice> tune(const CommShape& shape, CollOp op, Bytes bytes, const std::string& algo,
                                const std::string& proto);

// The registered algorithm that implements an NCCL family, if any.
std::optional<std::string> algorithm_for(NcclFamily f);

}  // namespace collsim
