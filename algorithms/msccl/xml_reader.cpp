#include "algorithms/msccl/xml_reader.hpp"

#include <cctype>

#include <fmt/format.h>

#include "sim/core/limits.hpp"

namespace collsim::msccl {

const XmlAttribute* XmlElement::attribute(std::string_view n) const {
    for (const auto& a : attributes)
        if (a.name == n) return &a;
    return nullptr;
}

namespace {

// MSCCL files nest four deep (algo, gpu, tb, step); far deeper is not one,
// and reading it would recurse without bound.
using limits::kMaxXmlDepth;

class Reader {
public:
    Reader(const std::string& text, const std::string& file) : t_(text), file_(file) {}

    std::unique_ptr<XmlElement> document() {
        skip_misc();
        if (at_end()) fail("a root element", "the end of the file");
        auto root = element(1);
        skip_misc();
        if (!at_end()) fail("nothing after the root element", quote_here());
        return root;
    }

private:
    bool at_end() const { return i_ >= t_.size(); }
    char peek(std::size_t ahead = 0) const { return i_ + ahead < t_.size() ? t_[i_ + ahead] : '\0'; }
    bool starts(std::string_view s) const { return t_.compare(i_, s.size(), s) == 0; }
    SourceLocation here() const { return SourceLocation{file_, line_, col_}; }
    void advance(std::size_t k = 1) {
        for (; k > 0 && i_ < t_.size(); --k, ++i_) {
            if (t_[i_] == '\n') {
                ++line_;
                col_ = 1;
            } else {
                ++col_;
            }
        }
    }
    std::string quote_here() const {
        if (at_end()) return "the end of the file";
        return fmt::format("'{}'", t_.substr(i_, std::min<std::size_t>(20, t_.find('\n', i_) - i_)));
    }
    [[noreturn]] void fail(const std::string& expected, const std::string& found) const {
        throw InputError(here(), "xml", "well-formed XML: " + expected, found);
    }
    void skip_space() {
        while (!at_end() && std::isspace(static_cast<unsigned char>(peek()))) advance();
    }
    void skip_until(std::string_view end, const char* what) {
        const std::size_t pos = t_.find(end, i_);
        if (pos == std::string::npos) fail(fmt::format("'{}' to close the {}", end, what), "the end of the file");
        advance(pos + end.size() - i_);
    }
    // Whitespace, comments and processing instructions between elements.
    void skip_misc() {
        for (;;) {
            skip_space();
            if (starts("<!--")) skip_until("-->", "comment");
            else if (starts("<?")) skip_until("?>", "declaration");
            else return;
        }
    }
    std::string name() {
        std::string out;
        while (!at_end() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_' || peek() == '-' ||
                             peek() == ':' || peek() == '.'))
            out += peek(), advance();
        if (out.empty()) fail("a name", quote_here());
        return out;
    }
    std::string value() {
        const char q = peek();
        if (q != '"' && q != '\'') fail("a quoted attribute value", quote_here());
        advance();
        std::string out;
        while (!at_end() && peek() != q) {
            if (peek() == '<') fail("no '<' inside an attribute value", quote_here());
            if (peek() == '&') {
                static const std::pair<std::string_view, char> kEntities[] = {
                    {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
                bool known = false;
                for (const auto& [e, c] : kEntities)
                    if (starts(e)) {
                        out += c;
                        advance(e.size());
                        known = true;
                        break;
                    }
                if (!known) fail("an entity &lt; &gt; &amp; &quot; or &apos;", quote_here());
                continue;
            }
            out += peek();
            advance();
        }
        if (at_end()) fail("the closing quote of an attribute value", "the end of the file");
        advance();
        return out;
    }
    std::unique_ptr<XmlElement> element(int depth) {
        if (peek() != '<') fail("an element", quote_here());
        if (depth > kMaxXmlDepth) fail(fmt::format("elements nested at most {} deep (the nesting limit)", kMaxXmlDepth), quote_here());
        auto e = std::make_unique<XmlElement>();
        e->where = here();
        advance();
        e->name = name();
        for (;;) {
            skip_space();
            if (starts("/>")) {
                advance(2);
                return e;
            }
            if (peek() == '>') {
                advance();
                break;
            }
            if (at_end()) fail(fmt::format("'>' to end <{}>", e->name), "the end of the file");
            XmlAttribute a;
            a.name = name();
            skip_space();
            if (peek() != '=') fail(fmt::format("'=' after attribute {}", a.name), quote_here());
            advance();
            skip_space();
            a.where = here();
            a.value = value();
            if (e->attribute(a.name)) throw InputError(a.where, e->name + "." + a.name, "each attribute once", "it twice");
            e->attributes.push_back(std::move(a));
        }
        for (;;) {
            skip_misc();
            if (starts("</")) {
                advance(2);
                const SourceLocation at = here();
                const std::string closing = name();
                if (closing != e->name)
                    throw InputError(at, "xml", fmt::format("well-formed XML: </{}> to close <{}> of line {}", e->name,
                                                            e->name, e->where.line),
                                     fmt::format("</{}>", closing));
                skip_space();
                if (peek() != '>') fail("'>'", quote_here());
                advance();
                return e;
            }
            if (at_end()) fail(fmt::format("</{}> to close <{}> of line {}", e->name, e->name, e->where.line),
                               "the end of the file");
            if (peek() != '<') fail("elements only (MSCCL files have no text)", quote_here());
            e->children.push_back(element(depth + 1));
        }
    }

    const std::string& t_;
    const std::string& file_;
    std::size_t i_ = 0;
    int line_ = 1, col_ = 1;
};

}  // namespace

std::unique_ptr<XmlElement> parse_xml(const std::string& text, const std::string& file) {
    return Reader(text, file).document();
}

}  // namespace collsim::msccl
