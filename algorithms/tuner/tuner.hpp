#pragma once
// Chooses what NCCL would run for a call: among the algorithms collsim
// implements, the (algorithm, protocol) with the least time under NCCL's own
// cost model, and the channels NCCL would launch for that message size.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/tuner/nccl_cost.hpp"

namespace collsim {

struct TunedChoice {
    std::string algo;
    ProtoKind proto = ProtoKind::simple;
    int channels = 1;            // what NCCL launches
    double ceiling_GBps = 0;     // NcclCost::ceiling_GBps of the choice
    std::string why;             // one line: the choice and the runner-up
    std::vector<NcclCost> costs;  // every candidate, for --explain
};

// What NCCL_PROTO allows besides one fixed protocol: a list turns the
// protocols it leaves out off and those it names on (LL128 where NCCL leaves
// it off by default), a ^list turns those it names off.
struct ProtoSwitches {
    std::vector<ProtoKind> disabled, enabled;
    bool off(ProtoKind p) const;
    bool on(ProtoKind p) const;
};

// `algo` and `proto` are "auto" or fixed; a fixed one narrows the candidates.
// nullopt when nothing implemented is eligible (the caller reports it).
// `usable` (if given) says whether a registered algorithm can run this call
// on its communicator (AlgorithmInfo::why_not); an NCCL family whose
// algorithm here cannot (collsim's NVLS is single-node) is passed over.
std::optional<TunedChoice> tune(const CommShape& shape, CollOp op, Bytes bytes, const std::string& algo,
                                const std::string& proto,
                                const std::function<bool(const std::string&)>& usable = {},
                                const ProtoSwitches& protos = {});

// The registered algorithm that implements an NCCL family, if any.
std::optional<std::string> algorithm_for(NcclFamily f);

}  // namespace collsim
