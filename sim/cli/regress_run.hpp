#pragma once
// Runs a regress suite through the same code paths as `coll` and `replay`
// (simulate_coll, load_replay_inputs): each entry's metrics, as a baseline
// records them. The environment's NCCL_* settings are not followed: a suite
// gives the same numbers in every shell.
#include "sim/regress/baseline.hpp"
#include "sim/regress/suite.hpp"

namespace collsim {

// Throws InputError for an entry whose inputs are bad (at the entry when the
// error has no file of its own).
Baseline run_suite(const Suite& suite);

}  // namespace collsim
