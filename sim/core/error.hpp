#pragma once
// Typed errors. Library code throws; only the CLI's main turns them into
// messages and exit codes (2 for bad input).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace collsim {

// Where in an input file a problem is. line and column are 1-based; 0 means
// unknown (e.g. a command-line argument has no file position).
struct SourceLocation {
    std::string file;
    int line = 0;
    int column = 0;
    // A binary file (a Chakra ET protobuf) has no lines: with line 0, the
    // offset of the place, shown as "file: byte N:"; -1 when there is none.
    int64_t byte = -1;
};

class InputError : public std::runtime_error {
public:
    InputError(SourceLocation where, std::string field, std::string expected, std::string found);

    const SourceLocation& where() const { return where_; }
    const std::string& field() const { return field_; }
    const std::string& expected() const { return expected_; }
    const std::string& found() const { return found_; }

private:
    SourceLocation where_;
    std::string field_, expected_, found_;
};

// Several input errors found in one validation pass, reported together.
class InputErrors : public std::runtime_error {
public:
    explicit InputErrors(std::vector<InputError> errors);
    const std::vector<InputError>& errors() const { return errors_; }

private:
    std::vector<InputError> errors_;
};

// `text` in quotes for a message, cut to its first line and at most
// `max_chars` characters (a whole file must never be echoed into an error).
std::string quote_input(std::string_view text, std::size_t max_chars = 120);

}  // namespace collsim
