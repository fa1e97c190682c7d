#pragma once
// A reduction-order study: derive each algorithm's combine order from its
// schedule (from simulated arrival order when timing decides it), reduce the
// same seeded inputs in that order, and compare with the exact sum, across
// ranks, across runs and across algorithms.
#include <optional>
#include <string>
#include <vector>

#include "sim/exec/collective.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/hw/topology.hpp"
#include "sim/numerics/evaluate.hpp"

namespace collsim {

// One way to run the reduction: an algorithm on a number of ranks of a
// topology. Configurations compared in one request reduce the same
// contributions (see contribution_block.hpp), whatever their rank counts.
struct NumericsConfig {
    std::string algo = "ring";
    int ranks = 8;
    std::string topology;  // empty: n GPUs on one NVSwitch-like crossbar
    std::string option;    // the option that named it, for errors; empty: --algo, --ranks, --topology
};

struct NumericsRequest {
    CollOp op = CollOp::allreduce;
    std::vector<NumericsConfig> configs{NumericsConfig{}};  // more than one: a comparison on the same data
    int64_t elements = 1 << 20;
    FloatFormat dtype = FloatFormat::fp32;
    std::optional<FloatFormat> accum;  // nullopt: native, every partial sum stored in dtype as NCCL does
    int runs = 1;
    uint64_t seed = 0;
    InputDistribution dist = InputDistribution::normal;
};

struct NumericsResult {
    NumericsConfig config;
    std::string label;           // the algorithm, with @ranks and :topology where configurations differ in them
    int contributions_per_rank = 1;
    ReductionStats stats;
    int runs_differing = 0;      // runs whose results differ bitwise from the first
    int64_t max_run_ulp = 0;     // largest difference between any run and the first
    std::string example_order;   // the combine order of chunk 0 on rank 0 (small n only)
};

struct PairDifference {
    std::string a, b;
    int64_t elements_differing = 0;  // zero: bitwise identical
    int64_t max_ulp = 0;
    double max_rel_difference = 0;   // |a - b| / max(|a|, |b|) over elements
};

struct NumericsReport {
    NumericsRequest request;
    int contributions = 0;  // per element: the least common multiple of the rank counts
    std::vector<NumericsResult> results;
    std::vector<PairDifference> pairs;
};

// The order in which a schedule's steps finish on the simulated network when
// each step is held back by a seeded random share of its protocol's step
// latency: where dependencies leave the combine order open, arrival decides.
std::vector<StepId> arrival_order(const Topology& topo, const Schedule& s, NcclFamily family, uint64_t jitter_seed);

// Throws InputError for bad requests (unknown algorithm, unsupported op).
NumericsReport run_numerics(const NumericsRequest& req);

}  // namespace collsim
