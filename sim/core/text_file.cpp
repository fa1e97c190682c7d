#include "sim/core/text_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/error.hpp"

namespace collsim {

std::string read_text_file(const std::string& path) {
    // A directory opens as an empty stream on Linux and would read as an empty file.
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError(SourceLocation{path, 0, 0}, "file", "a readable file", "a directory");
    std::ifstream in(path);
    if (!in) throw InputError(SourceLocation{path, 0, 0}, "file", "a readable file", "it cannot be opened");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    // Editors on Windows start UTF-8 files with a byte order mark; it is not content.
    if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
    return text;
}

SourceLocation text_position(const std::string& text, std::size_t byte, const std::string& name) {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return SourceLocation{name, line, column};
}

}  // namespace collsim
