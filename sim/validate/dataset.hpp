#pragma once
// A dataset: one nccl-tests run on a known machine. validation/data keeps
// each run as a CSV copied from ../shared/nccl-data (its source header kept)
// and lists them in datasets.yaml with the topology of the machine, its
// machine class (runs of one class cross-validate each other) and the
// NCCL_ALGO / NCCL_PROTO the run forced, if any.
//
//   datasets:
//     - file: dgxa100-40g-8gpu-allreduce-sb01.csv
//       topology: topologies/hgx-a100-40g-8gpu.yaml
//       class: a100-sxm4
// algo, proto, disable and enable add to what the log itself records of
// NCCL_ALGO, NCCL_PROTO, NCCL_NVLS_ENABLE and NCCL_COLLNET_ENABLE (and must
// agree with it):
//       algo: auto          # optional: ring, tree, ... as NCCL_ALGO forced it
//       proto: auto         # optional: ll, ll128, simple as NCCL_PROTO forced it
//       disable: [nvls]     # optional: algorithms the run turned off (NCCL_NVLS_ENABLE=0,
//                           #   NCCL_COLLNET_ENABLE=0), which the tuner then never picks
//       ranks: 8            # optional: else the log's device list, else the topology's GPUs
//       gpus_per_thread: 8  # optional: nccl-tests' -g; else what the log says, else 1
#include <optional>
#include <string>
#include <vector>

#include "sim/validate/measurement.hpp"
#include "sim/validate/topology_cache.hpp"

namespace collsim {

struct Dataset {
    std::string name;           // the file as listed (or given with --log)
    std::string path;           // where it was read from
    std::string topology_path;  // as given, relative paths resolved against the manifest's folder
    std::string machine_class;  // empty: cross-validates with nothing
    std::string algo = "auto", proto = "auto";
    std::vector<std::string> disabled;  // algorithms the run turned off
    std::vector<std::string> enabled;   // and on where NCCL leaves them off (NCCL_COLLNET_ENABLE=1)
    ProtoSwitches protos;               // NCCL_PROTO as a list or a ^list, from the log
    CollOp op = CollOp::allreduce;
    int ranks = 0;
    int nodes = 1;  // the CSV header's 'nodes:' line, else the raw log's hosts; 1 where neither says
    Measurement measurement;
    // GPUs one nccl-tests thread drove (-g): its launches bound the time of small collectives.
    int gpus_per_thread = 1;
};

// Reads a manifest (a folder's datasets.yaml, or the file itself) and every
// file it lists, paths relative to the manifest; each run is checked against
// its collective and its topology's GPU count. Throws InputErrors (manifest)
// or InputError (a run or topology).
std::vector<Dataset> load_datasets(const std::string& manifest, TopologyCache& topologies);

// What the command line says of a log (validate --log, calibrate): `op`
// overrides the collective the log names; `algo`, `proto`, `disabled` and
// `enabled` say what the run forced (NCCL_ALGO, NCCL_PROTO,
// NCCL_NVLS_ENABLE=0, NCCL_COLLNET_ENABLE=1) beyond the NCCL settings the
// log records; `gpus_per_thread` is -g where the log does not say it. Where
// the log says otherwise, it is an error.
struct LogDeclaration {
    std::optional<CollOp> op;
    std::string algo = "auto", proto = "auto";
    std::vector<std::string> disabled, enabled;
    std::optional<int> gpus_per_thread;
};

// One log checked against one topology.
Dataset log_dataset(const std::string& log, const std::string& topology, TopologyCache& topologies,
                    const LogDeclaration& declared = {});

}  // namespace collsim
