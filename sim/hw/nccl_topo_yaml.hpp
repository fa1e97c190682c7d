#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/core/units.hpp"
#include "sim/hw/nccl_topo_system.hpp"

namespace collsim::nccl_topo {

struct NodeOptions {
    std::optional<Bandwidth> memory_bandwidth;  // for every GPU, instead of the per-part table
};

struct NicInfo {
    std::string name;        // nic0, ...
    int64_t speed_mbps = 0;  // from <net speed>, 0 when not given
};

// A node's devices and links as YAML flow mappings, one per line (comments
// after them), plus what a cluster built from the node needs to know.
struct NodeYaml {
    std::vector<std::string> devices, links;
    std::vector<NicInfo> nics;
    int gpus = 0;
    int64_t nvlink_per_gpu = 0;  // bytes/s per direction from a GPU into its NVSwitch, 0 if none
};

// Throws InputErrors for figures the tables lack; appends a note per guess.
NodeYaml node_yaml(const System& s, const NodeOptions& o, std::vector<std::string>& notes);

}  // namespace collsim::nccl_topo
