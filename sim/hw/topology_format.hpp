#pragma once
// What kind of file was given where a topology was expected, told from its
// first bytes, so that a file in another format is named as that format
// rather than reported as the YAML error it would cause (an XML file reads
// as one long YAML scalar: "expected a mapping of fields").
#include <string>
#include <string_view>

namespace collsim {

enum class TopologyFileFormat { yaml, nccl_topology_xml, msccl_xml, other_xml, tar, binary };

// `text` as read_text_file returns it (already gunzipped).
TopologyFileFormat sniff_topology_format(const std::string& text);

// "NCCL topology XML", "an MSCCL algorithm (XML)", ...
std::string_view input_format_name(TopologyFileFormat f);

}  // namespace collsim
