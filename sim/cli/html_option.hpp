#pragma once
// --html FILE, on sweep, compare, plan and regress: where the report goes and
// the command line it records (main sets it from argv).
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/report/html_report.hpp"

namespace collsim {

struct HtmlOption {
    std::string file;          // empty: no report
    std::string command_line;  // report_command_line's
};

void add_html_option(CLI::App* c, HtmlOption& o);

// "collsim" and the arguments, each quoted where a shell would need it, less
// --html FILE: where the report was written is not part of what it reports.
std::string report_command_line(int argc, const char* const* argv);

// What the report says about its making: collsim's version, the command
// line and `inputs`.
HtmlProvenance report_provenance(const HtmlOption& o, std::vector<HtmlInput> inputs);

}  // namespace collsim
