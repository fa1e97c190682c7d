#pragma once
#include <string>

#include <CLI/CLI.hpp>

#include "sim/cli/html_option.hpp"

namespace collsim {

struct RegressOptions {
    std::string suite, baseline;
    std::string tolerance = "0";  // how much slower a metric may get; an entry's tolerance: wins
    bool update = false;          // rewrite the baseline from this run
    bool exact = false;           // any change at all fails (collsim's own CI)
    std::string junit;            // JUnit XML to this file; empty: none
    std::string format = "table";
    HtmlOption html;
};

CLI::App* add_regress_command(CLI::App& app, RegressOptions& opts);
// 0: no regression (or --update), 1: a regression or a new hang; throws
// InputError on bad input (a baseline of another model version among them).
int run_regress(const RegressOptions& opts);

}  // namespace collsim
