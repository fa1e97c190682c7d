#include "sim/core/json_stream.hpp"

#include <cerrno>
#include <cstring>

namespace collsim {

namespace {
// 1 MiB reads: few system calls, and little memory next to what a trace keeps.
constexpr std::size_t kChunk = std::size_t{1} << 20;

bool structural(char c) { return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':'; }
bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
}  // namespace

JsonStream::JsonStream(const std::string& path) : name_(path), file_(std::fopen(path.c_str(), "rb")) {
    if (!file_)
        throw InputError(SourceLocation{path, 0, 0}, "file", "a readable file", std::strerror(errno));
    buffer_.resize(kChunk);
    data_ = buffer_.data();
    fill();
}

JsonStream::JsonStream(std::string_view text, std::string name)
    : name_(std::move(name)), data_(text.data()), size_(text.size()) {}

JsonStream::~JsonStream() {
    if (file_) std::fclose(file_);
}

void JsonStream::fill() {
    size_ = std::fread(buffer_.data(), 1, buffer_.size(), file_);
    at_ = 0;
    if (size_ == 0 && std::ferror(file_))
        throw InputError(place(next_), "file", "a readable file", std::strerror(errno));
}

bool JsonStream::at_end() const { return at_ >= size_; }

// Follows the text as the parser reads it: the place of each character, and
// where the current token began. A token begins at a quote, a bracket or a
// separator, or at the first character after a blank or a separator; inside
// strings nothing begins.
void JsonStream::advance() {
    const char c = data_[at_];
    last_ = next_;
    if (in_string_) {
        if (escaped_) escaped_ = false;
        else if (c == '\\') escaped_ = true;
        else if (c == '"') in_string_ = false;
    } else if (blank(c)) {
        boundary_ = true;
    } else {
        last_structural_ = structural(c);
        if (c == '"' || last_structural_ || boundary_) {
            previous_token_ = token_;
            token_ = next_;
        }
        in_string_ = c == '"';
        boundary_ = last_structural_;
    }
    if (c == '\n') {
        ++next_.line;
        next_.column = 1;
    } else {
        ++next_.column;
    }
    if (++at_ == size_ && file_) fill();
}

}  // namespace collsim
