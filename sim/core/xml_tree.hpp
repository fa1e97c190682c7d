#pragma once
// An XML document as a tree of elements and attributes, each with its file,
// line and column, read with pugixml (a well-kept parser) rather than our own.
// Comments, the <?xml?> declaration and DOCTYPEs are skipped. The formats read
// this way (MSCCL algorithms, NCCL topology dumps) hold no text content, so
// text is an error, as is nesting deeper than a bound (a file that is not one
// of these formats, or a hostile one).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/error.hpp"

namespace collsim {

struct XmlAttribute {
    std::string name, value;
    SourceLocation where;  // of the value
};

struct XmlElement {
    std::string name;
    SourceLocation where;  // of the '<'
    std::vector<XmlAttribute> attributes;
    std::vector<std::unique_ptr<XmlElement>> children;

    const XmlAttribute* attribute(std::string_view name) const;
};

// `format` names the format in messages ("XML", "NCCL topology XML").
// Throws InputError (field "xml") when the text is not well-formed, nests
// deeper than `max_depth` or holds text, naming file:line:column.
std::unique_ptr<XmlElement> parse_xml(const std::string& text, const std::string& file,
                                      std::string_view format = "XML", int max_depth = 32);

}  // namespace collsim
