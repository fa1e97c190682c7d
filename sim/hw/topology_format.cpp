#include "sim/hw/topology_format.hpp"

#include <algorithm>

namespace collsim {

namespace {
// The first element's name, past the XML declaration, comments and DOCTYPE;
// empty when the text does not start like XML.
std::string_view sniffed_root_element(std::string_view t) {
    for (;;) {
        const std::size_t at = t.find_first_not_of(" \t\r\n");
        if (at == std::string_view::npos || t[at] != '<') return {};
        t.remove_prefix(at);
        std::string_view end = t.starts_with("<!--") ? "-->" : (t.starts_with("<?") || t.starts_with("<!")) ? ">" : "";
        if (end.empty()) break;
        const std::size_t close = t.find(end);
        // A file cut inside its header comment is still XML; which kind, its
        // reader will say (and where the comment starts).
        if (close == std::string_view::npos) return "?";
        t.remove_prefix(close + end.size());
    }
    t.remove_prefix(1);
    const std::size_t stop = t.find_first_of(" \t\r\n/>");
    return t.substr(0, stop);
}
}  // namespace

TopologyFileFormat sniff_topology_format(const std::string& text) {
    // POSIX tar: "ustar" at byte 257 of the first header.
    if (text.size() > 262 && text.compare(257, 5, "ustar") == 0) return TopologyFileFormat::tar;
    const std::string_view root = sniffed_root_element(text);
    if (root == "system") return TopologyFileFormat::nccl_topology_xml;
    if (root == "algo") return TopologyFileFormat::msccl_xml;
    if (!root.empty()) return TopologyFileFormat::other_xml;
    // YAML is text: a NUL or other control byte in the first kilobyte means
    // binary data, such as a Chakra ET protobuf.
    const std::string_view head = std::string_view(text).substr(0, 1024);
    if (std::any_of(head.begin(), head.end(), [](char c) {
            return c == '\0' || (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\r' && c != '\t');
        }))
        return TopologyFileFormat::binary;
    return TopologyFileFormat::yaml;
}

std::string_view input_format_name(TopologyFileFormat f) {
    switch (f) {
        case TopologyFileFormat::yaml: return "YAML";
        case TopologyFileFormat::nccl_topology_xml: return "NCCL topology XML";
        case TopologyFileFormat::msccl_xml: return "an MSCCL algorithm (XML)";
        case TopologyFileFormat::other_xml: return "XML";
        case TopologyFileFormat::tar: return "a tar archive";
        case TopologyFileFormat::binary: return "binary data (a Chakra ET protobuf, or an archive?)";
    }
    return "?";
}

}  // namespace collsim
