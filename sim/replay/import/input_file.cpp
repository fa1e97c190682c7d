#include "sim/replay/import/input_file.hpp"

#include <zlib.h>

#include <memory>

#include "sim/core/error.hpp"

namespace collsim {

std::string read_input_file(const std::string& path) {
    // gzread passes files that are not compressed through unchanged.
    std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzopen(path.c_str(), "rb"), gzclose);
    if (!in) throw InputError(SourceLocation{path, 0, 0}, "file", "a readable file", "it cannot be opened");
    std::string out;
    char buf[1 << 16];
    for (;;) {
        const int n = gzread(in.get(), buf, sizeof buf);
        if (n <= 0) break;
        out.append(buf, static_cast<std::size_t>(n));
    }
    // A truncated or corrupt compressed file ends the reads early with an error set.
    int err = Z_OK;
    const char* what = gzerror(in.get(), &err);
    if (err != Z_OK && err != Z_STREAM_END)
        throw InputError(SourceLocation{path, 0, 0}, "file", "a readable file (plain or gzip)",
                         std::string("a read error: ") + what);
    return out;
}

}  // namespace collsim
