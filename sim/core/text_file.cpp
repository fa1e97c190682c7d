#include "sim/core/text_file.hpp"

#include <sys/stat.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace collsim {

namespace {

std::string file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

[[noreturn]] void too_large(const std::string& path, int64_t limit, const std::string& found) {
    throw InputError(SourceLocation{path, 0, 0}, "file",
                     fmt::format("a file of at most {} bytes ({} MiB, the input size limit)", limit, limit >> 20),
                     found);
}

}  // namespace

std::string read_text_file(const std::string& path, int64_t max_bytes) {
    // Only regular files and pipes end: a device (/dev/zero) or a directory would
    // be read for ever or as nothing.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw InputError(SourceLocation{path, 0, 0}, "file", "a readable file", "it cannot be opened");
    if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
        throw InputError(SourceLocation{path, 0, 0}, "file", "a regular file or a pipe", file_kind(st.st_mode));
    // A regular file's size is known: one too large is refused before the read.
    // (A compressed file can only be judged as it unpacks, below.)
    if (S_ISREG(st.st_mode) && st.st_size > max_bytes)
        too_large(path, max_bytes, fmt::format("{} bytes", static_cast<int64_t>(st.st_size)));
    // gzread passes files that are not compressed through unchanged.
    std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzopen(path.c_str(), "rb"), gzclose);
    if (!in) throw InputError(SourceLocation{path, 0, 0}, "file", "a readable file", "it cannot be opened");
    std::string text;
    char buf[1 << 16];
    for (;;) {
        const int n = gzread(in.get(), buf, sizeof buf);
        if (n <= 0) break;
        if (static_cast<int64_t>(text.size()) + n > max_bytes)
            too_large(path, max_bytes, fmt::format("more ({} bytes read, unpacked, and not at the end)",
                                                   static_cast<int64_t>(text.size()) + n));
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

std::string read_file_head(const std::string& path, std::size_t bytes) {
    std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzopen(path.c_str(), "rb"), gzclose);
    if (!in) return "";
    std::string head(bytes, '\0');
    const int n = gzread(in.get(), head.data(), static_cast<unsigned>(head.size()));
    head.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return head;
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

void write_text_file_whole(const std::string& path, const std::string& text, const std::string& option) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out) throw InputError(SourceLocation{path, 0, 0}, option, "a file that can be written", path);
    }
    std::filesystem::rename(tmp, path);
}

}  // namespace collsim
