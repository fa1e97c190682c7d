#pragma once
// What the HTML report tests look at: the page as an XML parser reads it, and
// the page as headless Chromium renders it.
#include <map>
#include <optional>
#include <string>

namespace collsim::test {

struct HtmlShape {
    bool well_formed = false;
    std::string error;                   // pugixml's, when not well-formed
    std::map<std::string, int> elements;  // element name -> count
    std::string text;                     // every text node, in order, space-separated
    int count(const std::string& name) const {
        const auto it = elements.find(name);
        return it == elements.end() ? 0 : it->second;
    }
};

// Reads `html` with pugixml (the report's markup is XHTML-compatible).
HtmlShape html_shape(const std::string& html);

struct ChromiumRender {
    std::string dom;  // --dump-dom: the document after rendering
    std::string log;  // stderr with --enable-logging: console messages, refused loads
};

// Renders the file in headless Chromium; nullopt when chromium is not installed.
std::optional<ChromiumRender> render_in_chromium(const std::string& path);

}  // namespace collsim::test
