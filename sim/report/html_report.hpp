#pragma once
// The shared skeleton of collsim's HTML reports (--html on sweep, compare,
// plan and regress): one self-contained file, with inline CSS and inline
// SVG, no script and nothing fetched, so that it opens anywhere, offline,
// attached to a CI run. Each command adds its own sections; this writes the
// document, the tables and the provenance block (command line, inputs and
// their FNV-1a hashes, collsim's version). The markup is XHTML-compatible
// (every element closed, only XML's entities) so that an XML parser reads
// it. Nothing in it depends on when or where it was written: the same run
// writes the same bytes.
#include <string>
#include <vector>

namespace collsim {

struct HtmlInput {
    std::string role{};     // "topology", "spec", "A calibration", ...
    std::string path{};     // as given
    std::string fnv1a64{};  // of its text (gunzipped), as the JSON stamps give it
};

struct HtmlProvenance {
    std::string version{};       // collsim's (without the commit, as the JSON stamps)
    std::string command_line{};  // as run, without --html FILE
    std::vector<HtmlInput> inputs{};
};

struct HtmlTable {
    std::vector<std::string> header{};
    std::vector<std::vector<std::string>> rows{};  // cells that read as numbers align right
};

// `path`'s hash; InputError (field "file") when it cannot be read.
HtmlInput hashed_input(const std::string& role, const std::string& path);
// hashed_input for each path not already in `inputs` (by path); empty paths are skipped.
void add_input(std::vector<HtmlInput>& inputs, const std::string& role, const std::string& path);

class HtmlReport {
public:
    explicit HtmlReport(std::string title);
    HtmlReport& heading(const std::string& text);    // a section, <h2>
    HtmlReport& paragraph(const std::string& text);  // escaped text
    HtmlReport& table(const HtmlTable& t);
    HtmlReport& figure(const std::string& svg);  // an <svg> element, inlined as it is
    // The document: the title, the sections in the order added, then the provenance.
    std::string render(const HtmlProvenance& p) const;

private:
    std::string title_, body_;
};

// Writes `html` whole or not at all (through a temporary file); InputError
// naming --html when it cannot.
void write_html_report(const std::string& path, const std::string& html);

}  // namespace collsim
