#pragma once
// A small XML reader for MSCCL algorithm files: elements and attributes with
// the line and column of each, comments and the <?xml?> declaration skipped,
// the five predefined entities decoded. MSCCL files carry no text content,
// CDATA or DTDs; anything else is reported as not well-formed, with where.
// (A library such as tinyxml2 reports lines but not columns; every error
// here names file:line:column.)
#include <memory>
#include <string>
#include <vector>

#include "sim/core/error.hpp"

namespace collsim::msccl {

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

// Throws InputError (field "xml") when the text is not well-formed.
std::unique_ptr<XmlElement> parse_xml(const std::string& text, const std::string& file);

}  // namespace collsim::msccl
