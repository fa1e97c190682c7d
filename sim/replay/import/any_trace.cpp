#include "sim/replay/import/any_trace.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/core/json_input.hpp"
#include "sim/core/json_places.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/text_file.hpp"
#include "sim/replay/import/chakra_trace.hpp"
#include "sim/replay/import/kineto_json.hpp"
#include "sim/replay/import/trace_archive.hpp"
#include "sim/replay/import/trace_set.hpp"
#include "sim/replay/trace_loader.hpp"

namespace collsim {

namespace {
namespace fs = std::filesystem;
using nlohmann::json;

enum class Format { native, kineto };

// Told from the top-level keys alone, so that a native trace written as JSON
// is parsed once, by the YAML reader, and not first into a JSON document.
Format format_of(const std::string& text, const std::string& name) {
    if (!looks_like_json(text)) return Format::native;
    // A file named as JSON is read as JSON, so its errors are JSON's; a
    // native trace may also open with '{' (YAML's flow style): the YAML
    // reader reports where that breaks.
    const bool named_json = name.ends_with(".json") || name.ends_with(".json.gz");
    if (named_json) check_json_depth(text, name);
    const std::optional<bool> kineto = json_has_top_level_key(text, "traceEvents");
    if (!kineto && named_json) parse_json_input(text, name, "a Chakra or Kineto JSON trace");  // throws its error
    return kineto.value_or(false) ? Format::kineto : Format::native;
}

ImportedProgram import_kineto_file(const std::string& text, const std::string& file) {
    const json doc = parse_json_input(text, file, "a Chakra or Kineto JSON trace");
    return with_json_places(text, file, [&] { return import_kineto_rank(doc, text, file); });
}

// `first_text`: the first file's text, when the caller has read it already.
Trace import_files(const std::vector<std::string>& files, const std::string& source, const TraceImportOptions& options,
                   std::string first_text = {}) {
    std::vector<ImportedProgram> ranks;
    std::size_t ops = 0;
    for (const std::string& file : files) {
        const std::string text = ranks.empty() && !first_text.empty() ? std::move(first_text) : read_text_file(file);
        if (format_of(text, file) != Format::kineto)
            throw InputError(SourceLocation{file, 1, 1}, "file",
                             "a Chakra or Kineto JSON trace like the other files of " + source, "another format");
        ranks.push_back(import_kineto_file(text, file));
        check_imported_ops(ops += ranks.back().program.ops.size(), file);
    }
    return assemble_trace(std::move(ranks), fs::path(source).filename().string(), source, options.ranks_present);
}

std::vector<std::string> directory_files(const std::string& dir) {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (e.is_regular_file() && !skipped_in_folder(name) && (name.ends_with(".json") || name.ends_with(".json.gz")))
            files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty())
        throw InputError(SourceLocation{dir, 0, 0}, "directory", "one .json or .json.gz trace per rank", "none");
    return files;
}

// Any trace but an archive.
Trace load_unpacked_trace(const std::string& path, const TraceImportOptions& options) {
    if (std::optional<Trace> chakra = load_chakra_trace(path, options.ranks_present)) return std::move(*chakra);
    std::error_code ec;
    if (fs::is_directory(path, ec)) return import_files(directory_files(path), path, options);
    std::string text = read_text_file(path);
    if (format_of(text, path) == Format::kineto) return import_files({path}, path, options, std::move(text));
    if (static_cast<int64_t>(text.size()) > limits::kMaxNativeTraceBytes)
        throw InputError(SourceLocation{path, 0, 0}, "file",
                         fmt::format("a native trace of at most {} MiB (the native trace size limit: its "
                                     "YAML reader needs about 60 bytes of memory per byte)",
                                     limits::kMaxNativeTraceBytes >> 20),
                         fmt::format("{} bytes", text.size()));
    return parse_trace(text, path);
}
}  // namespace

Trace load_any_trace(const std::string& path, const TraceImportOptions& options) {
    // An archive is unpacked once: one found inside it is refused as an archive, so that an archive
    // of itself cannot recurse.
    const std::optional<UnpackedArchive> archive = unpack_trace_archive(path);
    if (!archive) return load_unpacked_trace(path, options);
    Trace t = load_unpacked_trace(archive->trace, options);
    t.notes.push_back(fmt::format("{}: read from the archive's {} file(s), unpacked", path, archive->files));
    // Errors after the load (the replay's checks) name the archive, not the folder that is removed.
    t.source = path;
    return t;
}

}  // namespace collsim
