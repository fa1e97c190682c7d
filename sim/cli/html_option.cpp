#include "sim/cli/html_option.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace collsim {

namespace {

std::string shell_word(const std::string& arg) {
    const bool plain = !arg.empty() && std::all_of(arg.begin(), arg.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_./:=,%+-@").find(c) != std::string_view::npos;
    });
    if (plain) return arg;
    std::string out = "'";
    for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

}  // namespace

void add_html_option(CLI::App* c, HtmlOption& o) {
    c->add_option("--html", o.file, "also write a self-contained HTML report (tables, SVG plots, inputs) to this file");
}

std::string report_command_line(int argc, const char* const* argv) {
    std::string out = "collsim";
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--html") ++i;
        else if (!arg.starts_with("--html=")) out += " " + shell_word(arg);
    }
    return out;
}

HtmlProvenance report_provenance(const HtmlOption& o, std::vector<HtmlInput> inputs) {
    // The version alone, not the commit, as the JSON stamps (provenance.cpp).
    return HtmlProvenance{COLLSIM_VERSION, o.command_line, std::move(inputs)};
}

}  // namespace collsim
