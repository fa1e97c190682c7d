#include "tests/support/html_checks.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <pugixml.hpp>

#include "tests/support/run_cli.hpp"

namespace collsim::test {

namespace {
void walk(const pugi::xml_node& n, HtmlShape& s) {
    for (const pugi::xml_node& c : n.children()) {
        if (c.type() == pugi::node_element) {
            ++s.elements[c.name()];
            walk(c, s);
        } else if (c.type() == pugi::node_pcdata) {
            s.text += std::string(c.value()) + " ";
        }
    }
}
}  // namespace

HtmlShape html_shape(const std::string& html) {
    HtmlShape s;
    pugi::xml_document doc;
    const pugi::xml_parse_result r = doc.load_string(html.c_str());
    s.well_formed = static_cast<bool>(r);
    if (!s.well_formed) {
        s.error = std::string(r.description()) + " at byte " + std::to_string(r.offset);
        return s;
    }
    walk(doc, s);
    return s;
}

std::optional<ChromiumRender> render_in_chromium(const std::string& path) {
    if (std::system("command -v chromium >/dev/null 2>&1") != 0) return std::nullopt;
    const std::string base = "/tmp/collsim-chromium-" + std::to_string(::getpid());
    // A profile of its own, so that runs in parallel do not share one.
    const std::string cmd = "timeout 60 chromium --headless --disable-gpu --no-sandbox --user-data-dir=" + base +
                            ".profile --enable-logging=stderr --v=0 --dump-dom 'file://" +
                            std::filesystem::absolute(path).string() + "' >" + base + ".dom 2>" + base + ".log";
    const int status = std::system(cmd.c_str());
    ChromiumRender r{slurp(base + ".dom"), slurp(base + ".log")};
    if (status != 0) r.log += "\nchromium exited with status " + std::to_string(status);
    std::remove((base + ".dom").c_str());
    std::remove((base + ".log").c_str());
    std::filesystem::remove_all(base + ".profile");
    return r;
}

}  // namespace collsim::test
