#include "sim/replay/import/trace_archive.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/input_format.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/text_file.hpp"
#include "sim/replay/import/trace_set.hpp"

namespace collsim {

namespace {
namespace fs = std::filesystem;
using Archive = std::unique_ptr<archive, int (*)(archive*)>;

// libarchive's message, which may be null.
std::string error_of(archive* a) {
    const char* e = archive_error_string(a);
    return e ? e : "an archive libarchive cannot read";
}

[[noreturn]] void refuse(archive* a, const std::string& path, const std::string& field, const std::string& expected,
                         const std::string& found) {
    // The bytes of the file read so far; where it failed to open, none counted: byte 0.
    throw InputError(SourceLocation{path, 0, 0, std::max<int64_t>(0, archive_filter_bytes(a, -1))}, field, expected,
                     found);
}

// The member's path below the folder it is unpacked into; empty for one the
// trace readers skip anyway (dotfiles, among them macOS's ._* files).
fs::path member_path(archive* a, const std::string& path, const char* raw) {
    const std::string name = raw ? raw : "";
    const fs::path p = fs::path(name).lexically_normal();
    if (name.empty() || p.is_absolute() || (!p.empty() && *p.begin() == ".."))
        refuse(a, path, "member", "members inside the archive's own folder", fmt::format("'{}'", name));
    for (const fs::path& part : p)
        if (part != "." && skipped_in_folder(part.string())) return {};
    return p;
}

int unpack(archive* a, const std::string& path, const fs::path& into) {
    int files = 0;
    int64_t bytes = 0;
    std::vector<char> block(1 << 16);
    for (;;) {
        archive_entry* e = nullptr;
        const int r = archive_read_next_header(a, &e);
        if (r == ARCHIVE_EOF) return files;
        if (r < ARCHIVE_WARN) refuse(a, path, "archive", "an archive libarchive can read", error_of(a));
        if (archive_entry_filetype(e) != AE_IFREG) continue;  // folders are made as files need them; links skipped
        const fs::path rel = member_path(a, path, archive_entry_pathname(e));
        if (rel.empty()) continue;
        if (++files > limits::kMaxArchiveFiles)
            refuse(a, path, "archive", fmt::format("at most {} files (the archive file limit)", limits::kMaxArchiveFiles),
                   "more");
        const fs::path out = into / rel;
        fs::create_directories(out.parent_path());
        std::ofstream file(out, std::ios::binary);
        for (la_ssize_t n; (n = archive_read_data(a, block.data(), block.size())) != 0;) {
            if (n < 0) refuse(a, path, rel.string(), "a member libarchive can read", error_of(a));
            if ((bytes += n) > limits::kMaxInputBytes)
                refuse(a, path, "archive",
                       fmt::format("at most {} MiB unpacked (the input size limit)", limits::kMaxInputBytes >> 20),
                       "more");
            file.write(block.data(), n);
        }
        if (!file) throw InputError(SourceLocation{path, 0, 0}, "archive", "room to unpack it", out.string());
    }
}

// Down through folders that hold one entry each, to what the archive holds.
std::string trace_inside(fs::path at) {
    for (;;) {
        std::error_code ec;
        std::vector<fs::path> entries;
        for (const auto& e : fs::directory_iterator(at, ec)) entries.push_back(e.path());
        if (entries.size() != 1) return at.string();
        at = entries.front();
        if (!fs::is_directory(at, ec)) return at.string();
    }
}
}  // namespace

bool trace_archives_supported() { return true; }

std::optional<UnpackedArchive> unpack_trace_archive(const std::string& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return std::nullopt;
    // Tar (ustar, pax, GNU) under any compression libarchive knows (gzip,
    // bzip2, xz, zstd, ...); it chooses the format on open, from the first
    // bytes. Zip is not read: traces are published as tarballs, and a zip stays
    // refused with "unzip it first".
    const Archive a(archive_read_new(), archive_read_free);
    archive_read_support_filter_all(a.get());
    archive_read_support_format_tar(a.get());
    if (archive_read_open_filename(a.get(), path.c_str(), 1 << 16) != ARCHIVE_OK) {
        // Not an archive, or a tar cut or corrupt before its first member: that one is named as such.
        if (sniff_input_format(read_file_head(path, 1024)) != InputFormat::tar) return std::nullopt;
        refuse(a.get(), path, "archive", "a tar archive libarchive can read", error_of(a.get()));
    }
    std::string temp = (fs::temp_directory_path() / "collsim-unpacked-XXXXXX").string();
    if (!mkdtemp(temp.data()))
        throw InputError(SourceLocation{path, 0, 0}, "archive", "a temporary folder to unpack it into", temp);
    // Owns the folder from here, so that an error below removes it.
    UnpackedArchive out{TempFolder(temp), {}, 0};
    const fs::path into = fs::path(temp) / fs::path(path).filename();
    out.files = unpack(a.get(), path, into);
    if (out.files == 0) refuse(a.get(), path, "archive", "an archive with at least one trace file", "none");
    out.trace = trace_inside(into);
    return out;
}

}  // namespace collsim
