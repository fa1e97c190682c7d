#pragma once
#include <string>

#include <CLI/CLI.hpp>

namespace collsim {

struct DiagnoseOptions {
    std::string input;     // CSV of rank,collective,enter_us,exit_us
    std::string topology;  // optional: names NICs and switches that named ranks share
    std::vector<std::string> settings;  // --set PATH=VALUE changes to the topology file
    std::string format = "table";
};

CLI::App* add_diagnose_command(CLI::App& app, DiagnoseOptions& opts);
int run_diagnose_command(const DiagnoseOptions& opts);

}  // namespace collsim
