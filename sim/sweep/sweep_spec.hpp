#pragma once
// A sweep spec (collsim sweep SPEC.yaml): which command each point runs, the
// parameters it varies and how they combine, and the plots to draw.
//
//   command: coll            # coll (default), replay or plan (a training layout)
//   mode: grid               # grid (default): every combination, the first
//                            # parameter varying slowest; zip: the i-th value
//                            # of every list together (a single value repeats)
//   parameters:
//     topology: topologies/cluster-h100-128n.yaml
//     set.fabrics.ib.oversubscription: ["1:1", "2:1", "4:1"]   # one --set path
//     set: ["nodes.count=16", "nodes.count=32"]                # or whole PATH=VALUE settings
//     op: [allreduce, alltoall]
//     size: [1M, 1G]
//   plots:
//     - {metric: busbw_GBps, x: size, group: set.fabrics.ib.oversubscription}
//
// A plan sweep varies `collsim plan`'s options (model, tp, pp, dp, ep, cp,
// vpp, zero, sp, micro_batch, global_batch, seq, recompute, dtype, overlap,
// gpu, tier): its rows say whether the layout fits and, where it does, its
// step time, tokens/s, MFU, bubble and exposed communication shares.
// `calibration: [defaults, fit.yaml]` compares the specs' figures with a fit.
// Relative file values (topology, trace, calibration, algo_file, faults, a
// plan's model card .yaml) are
// read from the spec's folder. Every error names the spec's file, line and
// column.
#include <string>
#include <vector>

#include "sim/core/error.hpp"

namespace collsim {

enum class SweepCommand { coll, replay, plan };

struct SweepParameter {
    std::string name;                 // a parameter name, or set.PATH
    // As written; a `set` value: its settings joined by ';'; a set.PATH value: the VALUE.
    std::vector<std::string> values;
    std::vector<SourceLocation> where;  // each value's position in the spec
};

struct SweepPlot {
    std::string metric, x, group;  // group empty: one line
    SourceLocation where;
};

struct SweepSpec {
    std::string file, folder;  // the spec and the folder relative paths are read from
    SweepCommand command = SweepCommand::coll;
    bool zip = false;
    std::vector<SweepParameter> parameters;
    std::vector<SweepPlot> plots;
};

// One combination of values: index into each parameter's values.
struct SweepPoint {
    std::size_t index = 0;
    std::vector<std::size_t> choice;
};

// Throws InputErrors listing every problem of the spec.
SweepSpec read_sweep_spec(const std::string& path);
// Every point, in spec order (grid: the first parameter varies slowest).
std::vector<SweepPoint> sweep_points(const SweepSpec& spec);
// The parameter names a command accepts besides set and set.PATH.
const std::vector<std::string>& sweep_parameter_names(SweepCommand c);
// The metric columns a command's points report.
const std::vector<std::string>& sweep_metric_names(SweepCommand c);
// Whether a parameter's value names a file: topology, trace, calibration,
// algo_file and faults do; a plan's model does where it ends in .yaml or
// .yml (otherwise it is a card name in models/).
bool is_sweep_file_value(const SweepSpec& spec, const std::string& parameter, const std::string& value);
// A value as a point uses it: a file parameter's relative path read from
// the spec's folder; any other value as written.
std::string sweep_value_as_used(const SweepSpec& spec, const std::string& parameter, const std::string& value);

}  // namespace collsim
