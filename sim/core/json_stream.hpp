#pragma once
// A JSON input read in one pass without holding its text: nlohmann's SAX
// parser fed one character at a time from a file (or from a text already in
// memory), with the line and column of the token each event stands for, which
// SAX events do not carry. Inputs that can be large (native JSON traces,
// 10^7 ops and 673 MB) are read this way so that memory follows what is kept,
// not the size of the text.
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"

namespace collsim {

class JsonStream {
public:
    // Reads `path` (a regular file, uncompressed); InputError when it cannot be opened.
    explicit JsonStream(const std::string& path);
    // Reads `text`, which must outlive the stream; `name` is the file it came from.
    JsonStream(std::string_view text, std::string name);
    ~JsonStream();
    JsonStream(const JsonStream&) = delete;
    JsonStream& operator=(const JsonStream&) = delete;

    // Where the token of the event being handled began: the quote of a string
    // or key, the bracket of a list or object, the first character of a number
    // or literal.
    SourceLocation token_at() const { return place(token_); }
    // The same for a number event, for which the parser has read one character
    // past the number.
    SourceLocation number_at() const { return place(last_structural_ ? previous_token_ : token_); }
    // The last character read: where a parse error was found.
    SourceLocation last_read() const { return place(last_); }
    bool at_end() const;
    const std::string& name() const { return name_; }

    // Parses the whole input with `sax` (nlohmann::json_sax<nlohmann::json>);
    // false when the handler stopped it or reported a parse error.
    template <class Sax>
    bool parse(Sax& sax) {
        return nlohmann::json::sax_parse(Iterator{this}, Iterator{nullptr}, &sax);
    }

private:
    struct Point {
        int line = 1, column = 1;
    };
    // What nlohmann's iterator input reads: *it, ++it and it != end.
    struct Iterator {
        using iterator_category = std::input_iterator_tag;
        using value_type = char;
        using difference_type = std::ptrdiff_t;
        using pointer = const char*;
        using reference = char;
        JsonStream* s;
        char operator*() const { return s->peek(); }
        Iterator& operator++() {
            s->advance();
            return *this;
        }
        bool operator==(const Iterator& o) const { return (!s || s->at_end()) == (!o.s || o.s->at_end()); }
    };

    char peek() const { return data_[at_]; }
    void advance();
    void fill();
    SourceLocation place(const Point& p) const { return SourceLocation{name_, p.line, p.column}; }

    std::string name_;
    std::FILE* file_ = nullptr;
    std::vector<char> buffer_;
    const char* data_ = nullptr;
    std::size_t size_ = 0, at_ = 0;
    Point next_, last_, token_, previous_token_;
    bool in_string_ = false, escaped_ = false, boundary_ = true, last_structural_ = false;
};

}  // namespace collsim
