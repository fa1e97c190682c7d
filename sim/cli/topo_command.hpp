#pragma once
#include <string>

#include <CLI/CLI.hpp>

namespace collsim {

struct TopoOptions {
    std::string file;
    std::vector<std::string> settings;  // --set PATH=VALUE changes to the topology file
    std::string format = "table";
    bool collapse = false;
    uint64_t seed = 0;  // accepted for the common contract; nothing here is random
    // topo import
    std::string output, fabric, gpu_arch, gpu_memory_bandwidth, name;
    int nodes = 0;
};

// `topo check FILE`, `topo show FILE`, `topo dot FILE`, `topo import FILE`. Returns the parent
// command; which action ran is read back by run_topo.
CLI::App* add_topo_command(CLI::App& app, TopoOptions& opts);
// Writes results to stdout; throws InputError(s) on bad input.
int run_topo(const CLI::App& topo_cmd, const TopoOptions& opts);
// `topo import` (topo_import.cpp).
void add_topo_import_command(CLI::App& topo, TopoOptions& opts);
int run_topo_import(const TopoOptions& opts);

}  // namespace collsim
