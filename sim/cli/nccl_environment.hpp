#pragma once
// NCCL_ALGO, NCCL_PROTO, NCCL_NVLS_ENABLE and NCCL_COLLNET_ENABLE as set in
// collsim's own environment, followed as NCCL would follow them where the
// command line leaves the choice open (the command line wins), with a note on
// stderr either way: someone who exported NCCL_ALGO=Tree for their real runs
// gets a prediction of what those runs do, and is told so.
#include <string>
#include <vector>

#include "algorithms/tuner/tuner.hpp"
#include "sim/exec/collective.hpp"

namespace collsim {

struct AlgorithmChoice {
    std::string algo = "auto", proto = "auto";
    std::vector<std::string> disabled{}, enabled{};
    ProtoSwitches protos{};
    // Which of them the command line gave (--algo, --proto, --disable/--enable).
    bool algo_given = false, proto_given = false, switches_given = false;
};

// Updates `choice` for a call of `op` and returns the notes, one a line
// (empty when no setting is in the environment). InputError, at
// "environment", for a value NCCL would not take or collsim cannot follow.
std::vector<std::string> follow_nccl_environment(CollOp op, AlgorithmChoice& choice);

// The settings above that the environment sets, as NAME=VALUE.
std::vector<std::string> nccl_environment_settings();

}  // namespace collsim
