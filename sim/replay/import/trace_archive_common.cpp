#include <filesystem>
#include <system_error>
#include <utility>

#include "sim/replay/import/trace_archive.hpp"

namespace collsim {

TempFolder::TempFolder(TempFolder&& other) noexcept : path_(std::exchange(other.path_, {})) {}

TempFolder::~TempFolder() {
    std::error_code ec;  // a folder that cannot be removed is left in /tmp, not an error
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

}  // namespace collsim
