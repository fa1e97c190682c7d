#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/hw/topology.hpp"

namespace collsim {

// A --topology argument: schema-v1 YAML, or NCCL topology XML imported on
// the fly, each guess the import made printed to stderr as a note.
// `settings` are the command's --set changes (sim/hw/topology_settings.hpp).
Topology load_cli_topology(const std::string& path, const std::vector<std::string>& settings = {});

// `--set PATH=VALUE`, repeatable, for a command that takes a topology.
void add_set_option(CLI::App* c, std::vector<std::string>& settings);

}  // namespace collsim
