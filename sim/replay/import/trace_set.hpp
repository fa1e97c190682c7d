#pragma once
// The files of one traced job, one per rank, named NAME.N.et or NAME.N.json
// (Chakra), or NAME_N.json (PyTorch execution traces: dlrm_eg_0.json), with
// .gz allowed: a folder of them, or the file of rank 0, which stands for its
// siblings. Dotfiles and macOS's "._" resource forks are not traces and are
// skipped. Every rank from 0 to the highest must be there: a missing one is
// an InputError naming it (a set of ranks 0, 1, 3 is not a 3-rank job).
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace collsim {

struct RankFile {
    std::string path;
    int rank = 0;
};

struct RankName {
    std::string prefix;  // "chakra." or "dlrm_eg_"
    int rank = 0;
    std::string suffix;  // ".et", ".json", ".json.gz"
};

// The rank in a file name, or nullopt when it has none (or is not a trace name).
std::optional<RankName> rank_name(const std::string& filename);

// Whether a folder entry is a hidden file or a macOS resource fork.
bool skipped_in_folder(const std::string& filename);

// The rank files in folder `dir` that are `wanted` (a reader's test of the
// content), by rank: those of its one NAME.N set. Empty when it has none; an
// InputError when it holds two sets or a set with a rank missing.
std::vector<RankFile> folder_rank_files(const std::string& dir,
                                        const std::function<bool(const std::string& path)>& wanted);

// `file` with its siblings when it is rank 0 of a set (NAME.0.et), else
// `file` alone (its rank from its name, or 0).
std::vector<RankFile> rank_files_of(const std::string& file);

}  // namespace collsim
