#pragma once
// What a file is when it is not the text a reader expects, told by its first
// bytes: an archive, a compressed stream, a Chakra ET protobuf, XML, other
// binary data. A reader that meets one names it and what to do ("this is a tar
// archive: unpack it first") instead of reporting the parse error its own
// grammar would give (a tar file read as YAML fails with an escape-character
// error; an XML file reads as one long YAML scalar). The one sniffer for every
// reader: traces, topologies and the YAML loader all ask it.
#include <string>
#include <string_view>

namespace collsim {

enum class InputFormat { text, gzip, zstd, xz, bzip2, zip, tar, seven_zip, chakra_et, nccl_topology_xml,
                         msccl_xml, xml, binary };

// Judges `head`, the first bytes of a file (after read_text_file's gunzip).
// Magic numbers and binary data are told from the first kilobyte; XML by its
// root element, which may follow a declaration and comments of any length
// within `head`. Fewer bytes are judged as far as they go.
InputFormat sniff_input_format(std::string_view head);

// "a tar archive", "a Chakra ET protobuf", ...
std::string_view format_name(InputFormat f);

// Throws an InputError at `file`:1:1 naming what `text` is and what to do with
// it, when it is one of the formats above other than plain text; `expected`
// says what the reader takes ("a topology in YAML"), `field` what the message
// is about ("file", "topology").
void refuse_foreign_format(std::string_view text, const std::string& file, const std::string& expected,
                           const std::string& field = "file");

}  // namespace collsim
