#include "sim/core/text_file.hpp"

#include <zlib.h>

#include <filesystem>
#include <memory>

#include "sim/core/error.hpp"

namespace collsim {

std::string read_text_file(const std::string& path) {
    // A directory opens as an empty stream on Linux and would read as an empty file.
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError(SourceLocation{path, 0, 0}, "file", "a readable file", "a directory");
    // gzread passes files that are not compressed through unchanged.
    std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzopen(path.c_str(), "rb"), gzclose);
    if (!in) throw InputError(SourceLocation{path, 0, 0}, "file", "a readable file", "it cannot be opened");
    std::string text;
    char buf[1 << 16];
    for (;;) {
        const int n = gzread(in.get(), buf, sizeof buf);
        if (n <= 0) break;
        text.append(buf, static_cast<std::size_t>(n));
    }
    // A truncated or corrupt compressed file ends the reads early with an error set.
    int err = Z_OK;
    const char* what = gzerror(in.get(), &err);
    if (err != Z_OK && err != Z_STREAM_END)
        throw InputError(SourceLocation{path, 0, 0}, "file", "a readable file (plain or gzip)",
                         std::string("a read error: ") + what);
    // Editors on Windows start UTF-8 files with a byte order mark; it is not content.
    if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
    return text;
}

SourceLocation text_position(const std::string& text, std::size_t byte, const std::string& name) {
    return text_positions(text, {byte}, name).front();
}

std::vector<SourceLocation> text_positions(const std::string& text, const std::vector<std::size_t>& bytes,
                                           const std::string& name) {
    std::vector<SourceLocation> out;
    out.reserve(bytes.size());
    int line = 1, column = 1;
    std::size_t i = 0;
    for (std::size_t byte : bytes) {
        for (; i < byte && i < text.size(); ++i) {
            if (text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        out.push_back(SourceLocation{name, line, column});
    }
    return out;
}

}  // namespace collsim
