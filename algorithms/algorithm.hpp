#pragma once
// The algorithm registry: each collective algorithm registers its name, what
// it does, the operations it implements, where it can run, a schedule builder
// and its closed-form (alpha-beta) time. The CLI's choices, input validation
// and the tuner's candidates come from here.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/chunking.hpp"
#include "algorithms/communicator.hpp"
#include "algorithms/cost_model.hpp"
#include "algorithms/fluid_form.hpp"
#include "sim/exec/collective.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/exec/schedule.hpp"

namespace collsim {

// Why an algorithm cannot run a call; nullopt when it can.
using Unavailable = std::optional<std::string>;

struct AlgorithmInfo {
    std::string_view name;
    std::string_view description;
    std::vector<CollOp> ops;
    // Whose NCCL latency figures its steps pay, and why, for an algorithm
    // NCCL does not have under that name.
    NcclFamily family;
    std::string_view family_reason;
    // Topology or communicator requirements beyond the operation; empty: none.
    std::function<Unavailable(CollOp, const CommLayout&)> requirement;
    std::function<Schedule(const CollectiveCall&, const CommLayout&)> build;
    std::function<Estimate(const CollectiveCall&, CostModel&)> estimate;
    // What turns it on where NCCL leaves it off by default (CollNet:
    // NCCL_COLLNET_ENABLE=1); empty: the tuner may pick it unless disabled.
    std::string_view enabled_by{};
    // Its fluid form (fluid_form.hpp), for algorithms whose steady state is a
    // set of long-lived streams; empty: the fluid tier runs its schedule.
    FluidBuilder fluid{};

    bool supports(CollOp op) const;
    // Why this algorithm cannot run `op` on `comm`; nullopt when it can.
    Unavailable why_not(CollOp op, const CommLayout& comm) const;
};

const std::vector<AlgorithmInfo>& algorithm_registry();
const AlgorithmInfo* find_algorithm(std::string_view name);
std::string algorithm_choices();
// What --enable and `enable:` accept: "an algorithm NCCL leaves off by
// default: collnet (as NCCL_COLLNET_ENABLE=1)".
std::string off_by_default_choices();

// Each algorithm file provides one of these; the registry lists them.
AlgorithmInfo ring_algorithm();
AlgorithmInfo sendrecv_algorithm();
AlgorithmInfo alltoall_direct_algorithm();
AlgorithmInfo alltoall_pairwise_algorithm();
AlgorithmInfo rhd_algorithm();
AlgorithmInfo tree_algorithm();
AlgorithmInfo nvls_algorithm();
AlgorithmInfo nvls_tree_algorithm();
AlgorithmInfo hierarchical_algorithm();
AlgorithmInfo collnet_algorithm();

}  // namespace collsim
