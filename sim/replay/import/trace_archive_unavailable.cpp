// Built without libarchive: no archive is unpacked; the trace readers' input
// sniffer then names a tar, zip or gzip file and says to unpack it first.
#include "sim/replay/import/trace_archive.hpp"

namespace collsim {

bool trace_archives_supported() { return false; }

std::optional<UnpackedArchive> unpack_trace_archive(const std::string&) { return std::nullopt; }

}  // namespace collsim
