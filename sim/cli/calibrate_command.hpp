#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace collsim {

struct CalibrateOptions {
    std::vector<std::string> logs;  // nccl-tests logs or CSVs, all measured on `topology`
    std::string topology;
    std::vector<std::string> settings;  // --set PATH=VALUE changes to the topology file
    std::string op;                 // for logs that do not name their collective
    std::string algo = "auto", proto = "auto";  // what the runs forced with NCCL_ALGO / NCCL_PROTO
    int gpus_per_thread = -1;  // nccl-tests -g of the run(s) where the logs do not say; -1: as they say, else 1
    std::vector<std::string> disable;           // what the runs turned off (NCCL_NVLS_ENABLE=0, ...)
    std::vector<std::string> enable;            // and on where NCCL leaves it off (NCCL_COLLNET_ENABLE=1)
    std::string start;              // a profile to start from; empty: defaults
    std::string size_corrections;   // boundaries, e.g. "64K,64M"; empty: none
    std::string output;             // the profile to write
    std::string format = "table";
    uint64_t seed = 0;
    bool force = false;  // write a fit that is worse than its start on its own rows
};

CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& opts);
// Writes the profile to --output and the fit quality to stdout; exit 1 and
// nothing written when the fit worsens its own rows, unless --force.
int run_calibrate(const CalibrateOptions& opts);

}  // namespace collsim
