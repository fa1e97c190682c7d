#pragma once
// A regress suite: the collectives and replays whose numbers a baseline pins.
//
//   model: auto                 # optional, every entry's tier (auto, flow, fluid, analytical)
//   calibration: cal.yaml       # optional, every entry's calibration
//   entries:
//     - topology: ../topologies/dgx-h100.yaml   # paths: relative to the suite file
//       op: allreduce           # coll: op and sizes (8, 64K, 1M, ...)
//       sizes: [8, 1M, 64M]
//       algo: ring              # optional: a registered algorithm, or auto
//       proto: simple           # optional: ll, ll128, simple, or auto
//       algo_file: ring.xml     # optional: an MSCCL algorithm instead of algo
//       tolerance: 5%           # optional: this entry's, over --tolerance
//     - name: dp-step           # optional everywhere: a stable name is made up
//       topology: ../topologies/cluster-h100-2n.yaml
//       trace: ../workloads/dp.yaml  # replay: a trace instead of op and sizes
//       steps: 2
//     - topology: ../topologies/cluster-h100-2n.yaml
//       plan: {model: llama-3-8b, tp: 8, dp: 2, global_batch: 64}  # a training layout, as `plan` takes it
//
// Either kind also takes ranks, faults, timeout, calibration, model, seed and set:
// a list of PATH=VALUE changes to the topology, as `--set` takes them.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/error.hpp"

namespace collsim {

// A file a suite names: as written (what a baseline records, the same from
// any directory) and as opened (relative to the suite's folder).
struct SuitePath {
    std::string written, resolved;
    bool empty() const { return written.empty(); }
};

struct SuiteEntry {
    std::string name;
    SourceLocation where;  // of the entry's mapping
    bool replay = false;   // a trace replay; otherwise a collective over sizes
    SuitePath topology;
    std::vector<std::string> settings;  // PATH=VALUE changes to the topology, as --set takes them
    // A collective: its operation and sizes (as written: "8", "64K"), and what runs it.
    std::string op;
    std::vector<std::string> sizes;
    std::string algo = "auto", proto = "auto", dtype = "float";
    SuitePath algo_file;
    int ranks = 0;  // 0: every GPU of the topology
    // A replay: the trace and how many steps.
    SuitePath trace;
    int steps = 1;
    // A plan layout: `plan`'s options by their suite names (tp, micro_batch),
    // as written and checked; the model card is a name or a file (plan_card).
    std::vector<std::pair<std::string, std::string>> plan{};
    SuitePath plan_card{};
    bool is_plan() const { return !plan_card.empty(); }
    SuitePath faults, calibration;
    std::string timeout;  // as written; empty: none
    std::string model = "auto";  // the tier; a plan's "auto" is plan's own default, fluid
    std::optional<uint64_t> seed;  // routing (coll) and stragglers (replay); absent: the command's default
    std::optional<double> tolerance;  // a fraction: 0.02 for 2%
    // Every file the entry reads, topology first.
    std::vector<SuitePath> inputs() const;
};

struct Suite {
    SuitePath file;
    std::vector<SuiteEntry> entries;
};

// Parse and validate, collecting every error (InputErrors with file:line:col,
// the field, what was expected and what was found). Checks names (operations,
// algorithms, protocols, tiers, sizes, times) but opens none of the files.
Suite load_suite(const std::string& path);
Suite parse_suite(const std::string& yaml_text, const std::string& path);

}  // namespace collsim
