#include "sim/replay/import/trace_set.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace collsim {

namespace {
namespace fs = std::filesystem;

// Ranks past this many digits are no rank numbers (and would overflow int).
constexpr std::size_t kRankDigits = 7;

std::string set_name(const RankName& n) { return n.prefix + "N" + n.suffix; }

// The files of one set, by rank, with none missing.
std::vector<RankFile> complete_set(std::vector<RankFile> files, const RankName& name, const std::string& where) {
    std::sort(files.begin(), files.end(), [](const RankFile& a, const RankFile& b) { return a.rank < b.rank; });
    for (std::size_t r = 0; r < files.size(); ++r)
        if (files[r].rank != static_cast<int>(r)) {
            std::string present;
            for (const RankFile& f : files) present += (present.empty() ? "" : ", ") + std::to_string(f.rank);
            throw InputError(SourceLocation{where, 0, 0}, "rank files",
                             fmt::format("one file per rank from 0 to {} ({})", files.back().rank, set_name(name)),
                             fmt::format("no {}{}{} (ranks {} are there)", name.prefix, r, name.suffix, present));
        }
    return files;
}
}  // namespace

std::optional<RankName> rank_name(const std::string& filename) {
    static const std::regex pattern(R"(^(.*[^0-9]|)([0-9]+)(\.et|\.json)(\.gz)?$)");
    std::smatch m;
    if (!std::regex_match(filename, m, pattern) || m[2].length() > static_cast<long>(kRankDigits)) return std::nullopt;
    return RankName{m[1].str(), std::stoi(m[2].str()), m[3].str() + m[4].str()};
}

bool skipped_in_folder(const std::string& filename) { return filename.starts_with("."); }

std::vector<RankFile> folder_rank_files(const std::string& dir,
                                        const std::function<bool(const std::string& path)>& wanted) {
    std::map<std::pair<std::string, std::string>, std::vector<RankFile>> sets;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        const auto rn = rank_name(name);
        if (skipped_in_folder(name) || !rn || !e.is_regular_file() || !wanted(e.path().string())) continue;
        sets[{rn->prefix, rn->suffix}].push_back(RankFile{e.path().string(), rn->rank});
    }
    if (sets.empty()) return {};
    if (sets.size() > 1) {
        std::string names;
        for (const auto& [key, files] : sets)
            names += (names.empty() ? "" : ", ") + set_name(RankName{key.first, 0, key.second});
        throw InputError(SourceLocation{dir, 0, 0}, "directory", "the rank files of one trace (NAME.N.et or NAME.N.json)",
                         fmt::format("{} sets: {}", sets.size(), names));
    }
    const auto& [key, files] = *sets.begin();
    return complete_set(files, RankName{key.first, 0, key.second}, dir);
}

std::vector<RankFile> rank_files_of(const std::string& file) {
    const fs::path p(file);
    const auto rn = rank_name(p.filename().string());
    if (!rn || rn->rank != 0) return {RankFile{file, rn ? rn->rank : 0}};
    std::vector<RankFile> files;
    std::error_code ec;
    const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        const auto sib = rank_name(name);
        if (skipped_in_folder(name) || !sib || sib->prefix != rn->prefix || sib->suffix != rn->suffix) continue;
        files.push_back(RankFile{e.path() == dir / p.filename() ? file : (p.parent_path() / name).string(), sib->rank});
    }
    return complete_set(files, *rn, file);
}

}  // namespace collsim
