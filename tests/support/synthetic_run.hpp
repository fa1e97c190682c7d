#pragma once
// nccl-tests runs "measured" by the model itself under a known calibration,
// for tests of fits: a fit should recover what produced its rows.
#include <string>

#include "sim/exec/collective.hpp"
#include "sim/model/calibration.hpp"
#include "sim/validate/dataset.hpp"
#include "sim/validate/topology_cache.hpp"

namespace collsim::test {

// 8 B to 1 GiB in steps of 8 over every GPU of `topology` (a path under the
// source tree), each of its threads launching on `gpus_per_thread` GPUs: a
// ring AllReduce, or `algo` running `op`. Only the out-of-place time is set.
Dataset synthetic_run(const std::string& topology, TopologyCache& machines, const Calibration& truth,
                      int gpus_per_thread = 1, CollOp op = CollOp::allreduce, const std::string& algo = "ring");

}  // namespace collsim::test
