#include "sim/core/xml_tree.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>
#include <pugixml.hpp>

namespace collsim {

const XmlAttribute* XmlElement::attribute(std::string_view n) const {
    for (const auto& a : attributes)
        if (a.name == n) return &a;
    return nullptr;
}

namespace {

// Byte offsets to line:column, by binary search over the line starts: a
// 350 KB MSCCL file has tens of thousands of attributes.
class XmlLineIndex {
public:
    XmlLineIndex(const std::string& text, const std::string& file) : file_(file) {
        starts_.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n') starts_.push_back(i + 1);
    }
    SourceLocation at(std::size_t offset) const {
        const auto it = std::upper_bound(starts_.begin(), starts_.end(), offset) - 1;
        return SourceLocation{file_, static_cast<int>(it - starts_.begin()) + 1,
                              static_cast<int>(offset - *it) + 1};
    }

private:
    const std::string& file_;
    std::vector<std::size_t> starts_;
};

class XmlTreeBuilder {
public:
    XmlTreeBuilder(const std::string& text, const std::string& buffer, const std::string& file, std::string_view format,
                int max_depth)
        : text_(text), buffer_(buffer), lines_(text, file), format_(format), max_depth_(max_depth) {}

    [[noreturn]] void fail(std::size_t offset, const std::string& expected, const std::string& found) const {
        throw InputError(lines_.at(offset), "xml", fmt::format("well-formed {}: {}", format_, expected), found);
    }
    std::string quote_at(std::size_t offset) const {
        if (offset >= text_.size()) return "the end of the file";
        return quote_input(std::string_view(text_).substr(offset), 20);
    }
    std::size_t offset_of(const char* p) const { return static_cast<std::size_t>(p - buffer_.data()); }
    // The offset of the '<' that starts element `e`.
    std::size_t start_of(const pugi::xml_node& e) const { return static_cast<std::size_t>(e.offset_debug()) - 1; }

    // Refuses nesting past the bound before anything else, so a file of a
    // million unclosed tags is named for its depth, not its last tag.
    void check_depth(const pugi::xml_node& root) const {
        int depth = 0;
        for (pugi::xml_node n = root; n; n = last_element(n))
            if (++depth > max_depth_)
                fail(start_of(n), fmt::format("elements nested at most {} deep", max_depth_), quote_at(start_of(n)));
    }

    std::unique_ptr<XmlElement> element(const pugi::xml_node& n, int depth) const {
        if (depth > max_depth_)
            fail(start_of(n), fmt::format("elements nested at most {} deep", max_depth_), quote_at(start_of(n)));
        auto e = std::make_unique<XmlElement>();
        e->name = n.name();
        e->where = lines_.at(start_of(n));
        for (const pugi::xml_attribute& a : n.attributes()) {
            XmlAttribute out{a.name(), a.value(), lines_.at(value_offset(offset_of(a.name()) + std::strlen(a.name())))};
            if (e->attribute(out.name))
                throw InputError(out.where, e->name + "." + out.name, "each attribute once", "it twice");
            e->attributes.push_back(std::move(out));
        }
        for (const pugi::xml_node& c : n.children()) {
            if (c.type() == pugi::node_element) e->children.push_back(element(c, depth + 1));
            else if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
                const auto at = static_cast<std::size_t>(c.offset_debug());
                fail(at, fmt::format("elements only ({} files have no text)", format_), quote_at(at));
            }
        }
        return e;
    }

    // Why pugixml stopped, where a user would look for it.
    [[noreturn]] void parse_error(const pugi::xml_parse_result& r, const pugi::xml_document& doc) const {
        const auto at = static_cast<std::size_t>(r.offset);
        switch (r.status) {
            case pugi::status_no_document_element: fail(text_.size(), "a root element", "the end of the file");
            case pugi::status_bad_comment: {
                // A file cut inside a comment (often its licence header) is
                // located at the comment's start, not at the end of the file.
                const std::size_t open = text_.rfind("<!--", at);
                fail(open == std::string::npos ? at : open, "'-->' to close the comment that starts here",
                     "the end of the file");
            }
            case pugi::status_end_element_mismatch: {
                const pugi::xml_node open = innermost_open(doc.document_element(), at);
                const std::string expected =
                    open ? fmt::format("</{}> to close <{}> of line {}", open.name(), open.name(),
                                       lines_.at(start_of(open)).line)
                         : "a closing tag that matches an open element";
                if (at >= text_.size() || text_.find_first_not_of(" \t\r\n", at) == std::string::npos)
                    fail(text_.size(), expected, "the end of the file");
                const std::size_t name_end = text_.find_first_of(" \t\r\n>", at);
                fail(at, expected, fmt::format("</{}>", text_.substr(at, name_end - at)));
            }
            default: fail(at, fmt::format("XML (pugixml: {})", r.description()), quote_at(at));
        }
    }

private:
    static pugi::xml_node last_element(const pugi::xml_node& n) {
        for (pugi::xml_node c = n.last_child(); c; c = c.previous_sibling())
            if (c.type() == pugi::node_element) return c;
        return {};
    }
    // An attribute's value is located at its opening quote, after its name and '='.
    std::size_t value_offset(std::size_t after_name) const {
        std::size_t p = text_.find_first_of("\"'", after_name);
        return p == std::string::npos ? after_name : p;
    }
    // The '>' that ends the start tag of `e` (quoted values may hold '>').
    std::size_t start_tag_end(const pugi::xml_node& e) const {
        char quote = 0;
        for (std::size_t i = start_of(e); i < text_.size(); ++i) {
            if (quote) quote = text_[i] == quote ? 0 : quote;
            else if (text_[i] == '"' || text_[i] == '\'') quote = text_[i];
            else if (text_[i] == '>') return i;
        }
        return text_.size();
    }
    // pugixml keeps what it read before an error. The open elements are on
    // the chain of last children; walking up from the deepest, an element is
    // closed when its start tag ends in "/>" or its end tag comes before `stop`.
    pugi::xml_node innermost_open(const pugi::xml_node& root, std::size_t stop) const {
        std::vector<pugi::xml_node> chain;
        for (pugi::xml_node n = root; n; n = last_element(n)) chain.push_back(n);
        std::size_t from = 0;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const std::size_t tag_end = start_tag_end(*it);
            from = std::max(from, tag_end);
            if (tag_end < text_.size() && text_[tag_end - 1] == '/') {
                from = tag_end + 1;
                continue;
            }
            const std::string closing = std::string("</") + it->name();
            std::size_t found = text_.find(closing, from);
            while (found != std::string::npos && found < stop &&
                   std::strchr(" \t\r\n>", text_[found + closing.size()]) == nullptr)
                found = text_.find(closing, found + 1);
            if (found == std::string::npos || found >= stop) return *it;
            from = found + closing.size();
        }
        return {};
    }

    const std::string& text_;
    const std::string& buffer_;
    XmlLineIndex lines_;
    std::string_view format_;
    int max_depth_;
};

}  // namespace

std::unique_ptr<XmlElement> parse_xml(const std::string& text, const std::string& file, std::string_view format,
                                      int max_depth) {
    // Parsed in place, so names and values point into `buffer` at the offsets
    // they have in `text` (pugixml only shortens strings within themselves).
    std::string buffer = text;
    pugi::xml_document doc;
    const pugi::xml_parse_result r =
        doc.load_buffer_inplace(buffer.data(), buffer.size(), pugi::parse_default, pugi::encoding_utf8);
    const XmlTreeBuilder b(text, buffer, file, format, max_depth);
    const pugi::xml_node root = doc.document_element();
    if (!r) {
        if (root) b.check_depth(root);
        b.parse_error(r, doc);
    }
    for (pugi::xml_node n = root.next_sibling(); n; n = n.next_sibling())
        if (n.type() == pugi::node_element)
            b.fail(b.start_of(n), "nothing after the root element", b.quote_at(b.start_of(n)));
    return b.element(root, 1);
}

}  // namespace collsim
