#pragma once
#include <string>

#include <CLI/CLI.hpp>

#include "sim/cli/html_option.hpp"
#include "sim/cli/progress_monitor.hpp"

namespace collsim {

struct SweepOptions {
    std::string spec;
    int jobs = 1;
    std::string output;    // CSV file; empty: stdout
    std::string plot_dir;  // SVG plots; empty: none
    HtmlOption html;
    ProgressOptions progress;
};

CLI::App* add_sweep_command(CLI::App& app, SweepOptions& opts);
// Writes the CSV (and plots); throws InputError on bad input. 1 when
// --wall-limit stopped it before every point ran.
int run_sweep(const SweepOptions& opts);

}  // namespace collsim
