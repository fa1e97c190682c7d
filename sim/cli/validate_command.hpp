#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/cli/progress_monitor.hpp"

namespace collsim {

struct ValidateOptions {
    std::string data = "validation/data";  // a folder with datasets.yaml
    std::string log, topology, op;         // one log against one topology instead
    std::vector<std::string> settings;  // --set PATH=VALUE changes to the topology file
    std::string algo = "auto", proto = "auto";  // what --log's run forced with NCCL_ALGO / NCCL_PROTO
    int gpus_per_thread = -1;  // nccl-tests -g of the run(s) where the logs do not say; -1: as they say, else 1
    std::vector<std::string> disable;      // algorithms --log's run turned off (NCCL_NVLS_ENABLE=0, ...)
    std::vector<std::string> enable;       // and turned on where NCCL leaves them off (NCCL_COLLNET_ENABLE=1)
    std::string calibration;               // a profile; empty: defaults
    bool cross = false;
    std::string size_corrections;          // boundaries for the fits of --cross, e.g. "64K,64M"
    std::string plot;                      // a folder for one SVG per dataset
    std::string format = "table";
    double max_bandwidth_error = -1, max_latency_error = -1;  // exit 1 above these (percent); -1: no check
    // Given on the command line: a negative threshold, or --data beside --log, is an error.
    bool data_given = false, max_bandwidth_given = false, max_latency_given = false;
    uint64_t seed = 0;
    ProgressOptions progress;  // --wall-limit, --quiet
};

CLI::App* add_validate_command(CLI::App& app, ValidateOptions& opts);
// Writes results to stdout; returns 1 when a --max-*-error check fails.
int run_validate(const ValidateOptions& opts);

}  // namespace collsim
