#include "sim/replay/import/any_trace.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/core/json_input.hpp"
#include "sim/core/json_places.hpp"
#include "sim/core/json_stream.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/text_file.hpp"
#include "sim/replay/import/chakra_trace.hpp"
#include "sim/replay/import/kineto_json.hpp"
#include "sim/replay/import/trace_archive.hpp"
#include "sim/replay/import/trace_set.hpp"
#include "sim/replay/trace_loader.hpp"
#include "sim/replay/trace_stream.hpp"

namespace collsim {

namespace {
namespace fs = std::filesystem;
using nlohmann::json;

enum class Format { native, kineto };

bool named_json(const std::string& name) { return name.ends_with(".json") || name.ends_with(".json.gz"); }

// Told from the top-level keys alone, so that a native trace written as JSON
// is parsed once, by the YAML reader, and not first into a JSON document.
Format format_of(const std::string& text, const std::string& name) {
    if (!looks_like_json(text)) return Format::native;
    // A file named as JSON is read as JSON, so its errors are JSON's; a
    // native trace may also open with '{' (YAML's flow style): the YAML
    // reader reports where that breaks.
    if (named_json(name)) check_json_depth(text, name);
    const std::optional<bool> kineto = json_has_top_level_key(text, "traceEvents");
    if (!kineto && named_json(name)) parse_json_input(text, name, "a Chakra or Kineto JSON trace");  // throws its error
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

// A native trace that cannot be streamed (trace_stream.hpp says why), read
// as a whole document from `text` (read when needed), within the document limit.
Trace native_document(int64_t bytes, const std::function<std::string()>& text, const std::string& path,
                      const std::string& why) {
    if (bytes > limits::kMaxNativeTraceDocumentBytes)
        throw InputError(SourceLocation{path, 0, 0}, "file",
                         fmt::format("a native trace of at most {} MiB (the native trace document size limit: a "
                                     "trace read as a whole document needs about 60 bytes of memory per byte), or a "
                                     "JSON trace that can be streamed: header before programs, no overrides",
                                     limits::kMaxNativeTraceDocumentBytes >> 20),
                         fmt::format("{} bytes{}", bytes, why.empty() ? "" : ", not streamed: " + why));
    return parse_trace(text(), path);
}

// A native JSON trace, streamed from `in`; nullopt when it is a Kineto trace.
std::optional<Trace> stream_native(JsonStream& in, int64_t bytes, const std::function<std::string()>& text,
                                   const std::string& path) {
    StreamedTrace s = stream_json_trace(in);
    if (s.trace) return std::move(*s.trace);
    if (s.kineto) return std::nullopt;
    return native_document(bytes, text, path, s.not_streamed);
}

// A regular, uncompressed file named .json that opens as a JSON object is
// streamed from the file, without reading its text first.
bool streams_from_file(const std::string& path) {
    std::error_code ec;
    if (!path.ends_with(".json") || !fs::is_regular_file(path, ec)) return false;
    const std::string head = read_file_head(path, 4096);
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    unsigned char magic[2] = {0, 0};
    const bool gzip = std::fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    std::fclose(f);
    return !gzip && looks_like_json(head);
}

// Any trace but an archive.
Trace load_unpacked_trace(const std::string& path, const TraceImportOptions& options) {
    if (std::optional<Trace> chakra = load_chakra_trace(path, options.ranks_present)) return std::move(*chakra);
    std::error_code ec;
    if (fs::is_directory(path, ec)) return import_files(directory_files(path), path, options);
    if (streams_from_file(path)) {
        const auto bytes = static_cast<int64_t>(fs::file_size(path, ec));
        if (bytes > limits::kMaxNativeTraceStreamBytes)
            throw InputError(SourceLocation{path, 0, 0}, "file",
                             fmt::format("a JSON trace of at most {} MiB (the native trace stream size limit)",
                                         limits::kMaxNativeTraceStreamBytes >> 20),
                             fmt::format("{} bytes", bytes));
        JsonStream in(path);
        if (auto t = stream_native(in, bytes, [&] { return read_text_file(path); }, path)) return std::move(*t);
    }
    std::string text = read_text_file(path);
    if (format_of(text, path) == Format::kineto) return import_files({path}, path, options, std::move(text));
    const auto bytes = static_cast<int64_t>(text.size());
    if (named_json(path)) {  // a pipe or a .json.gz: streamed from its text
        JsonStream in(text, path);
        if (auto t = stream_native(in, bytes, [&] { return text; }, path)) return std::move(*t);
    }
    return native_document(bytes, [&] { return text; }, path, "");
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
