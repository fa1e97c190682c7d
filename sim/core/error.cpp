#include "sim/core/error.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace collsim {

namespace {
std::string describe(const SourceLocation& w, const std::string& field, const std::string& expected,
                     const std::string& found) {
    std::string prefix;
    if (!w.file.empty()) {
        prefix = w.line > 0     ? fmt::format("{}:{}:{}: ", w.file, w.line, w.column)
                 : w.byte >= 0 ? fmt::format("{}: byte {}: ", w.file, w.byte)
                               : w.file + ": ";
    }
    return fmt::format("{}{}: expected {}, found {}", prefix, field, expected, found);
}

std::string join(const std::vector<InputError>& errors) {
    std::string out;
    for (const auto& e : errors) {
        if (!out.empty()) out += '\n';
        out += e.what();
    }
    return out;
}
}  // namespace

InputError::InputError(SourceLocation where, std::string field, std::string expected, std::string found)
    : std::runtime_error(describe(where, field, expected, found)),
      where_(std::move(where)),
      field_(std::move(field)),
      expected_(std::move(expected)),
      found_(std::move(found)) {}

InputErrors::InputErrors(std::vector<InputError> errors)
    : std::runtime_error(join(errors)), errors_(std::move(errors)) {}

std::string quote_input(std::string_view text, std::size_t max_chars) {
    const std::size_t line_end = std::min(text.find_first_of("\r\n"), text.size());
    const std::size_t cut = std::min(line_end, max_chars);
    if (cut == text.size()) return fmt::format("'{}'", text);
    return fmt::format("'{}...' ({} characters in all)", text.substr(0, cut), text.size());
}

}  // namespace collsim
