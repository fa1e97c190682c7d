#pragma once
// NCCL topology XML (NCCL_TOPO_FILE / NCCL_TOPO_DUMP_FILE; RCCL's dialect
// with <xgmi>) to a schema-v1 topology: `collsim topo import`, and what
// `--topology FILE.xml` reads.
#include <optional>
#include <string>
#include <vector>

#include "sim/core/units.hpp"
#include "sim/hw/device.hpp"

namespace collsim {

struct NcclImportOptions {
    std::optional<GpuArch> gpu_arch;            // for files that give no sm (skeletons)
    std::optional<Bandwidth> memory_bandwidth;  // for every GPU
    int nodes = 0;            // > 0: a cluster of this many copies of the node...
    std::string fabric_file;  // ...joined by the fabrics of this YAML file (`fabrics:` list)
    std::string name;         // of the topology; default: from the file name
};

struct NcclImport {
    std::string yaml;                // a schema-v1 topology
    std::vector<std::string> notes;  // one per value guessed or left out
};

// Throws InputError(s) naming file:line:column and the format.
NcclImport import_nccl_topology(const std::string& text, const std::string& file, const NcclImportOptions& options);

}  // namespace collsim
