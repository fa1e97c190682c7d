#pragma once
// Traces shipped as an archive (a .tgz of a Chakra set, a .tar.gz of a job's
// Kineto traces, as PARAM and Chakra publish theirs): unpacked with libarchive
// into a temporary folder that the trace readers then read like any other
// folder, and removed afterwards. The folder is named after the archive
// (/tmp/collsim-unpacked-XXXXXX/traces.tgz/...), so that an error's path
// still says which archive and which member it is about. Built without
// libarchive, collsim refuses archives as the input sniffer does ("this is a
// tar archive: unpack it first").
#include <optional>
#include <string>
#include <utility>

namespace collsim {

// A temporary folder, removed with everything in it when this is destroyed.
class TempFolder {
public:
    explicit TempFolder(std::string path) : path_(std::move(path)) {}
    TempFolder(TempFolder&& other) noexcept;
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    TempFolder& operator=(TempFolder&&) = delete;
    ~TempFolder();

    const std::string& path() const { return path_; }

private:
    std::string path_;
};

struct UnpackedArchive {
    TempFolder folder;
    // What to read: the archive's one top-level file or folder (followed down
    // through folders that hold one entry each), else the whole archive.
    std::string trace;
    int files = 0;
};

// Whether this collsim reads archives (it was built with libarchive).
bool trace_archives_supported();

// Empty when `path` is not a tar archive (compressed or not) or
// archives are not supported. A broken archive, a member outside the archive's
// own folder ("../x", "/etc/x"), or more than limits::kMaxArchiveFiles files or
// limits::kMaxInputBytes bytes unpacked is an InputError at `path`, with the
// byte of the archive where it was found. Links and special files are skipped.
std::optional<UnpackedArchive> unpack_trace_archive(const std::string& path);

}  // namespace collsim
