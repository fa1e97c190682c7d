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
#include "sim/replay/import/trace_set.hpp"
#include "sim/replay/trace_loader.hpp"

namespace collsim {

namespace {
namespace fs = std::filesystem;
using nlohmann::json;

enum class Format { native, kineto };

Format format_of(const std::string& text, const std::string& name, json& doc) {
    if (!looks_like_json(text)) return Format::native;
    // A file named as JSON is read as JSON, so its errors are JSON's; a
    // native trace may also open with '{' (YAML's flow style): the YAML
    // reader reports where that breaks.
    if (name.ends_with(".json") || name.ends_with(".json.gz"))
        doc = parse_json_input(text, name, "a Chakra or Kineto JSON trace");
    else doc = json::parse(text, nullptr, false);
    if (doc.is_discarded()) return Format::native;
    check_json_depth(text, name);  // before anything copies the value recursively
    if (is_kineto_json(doc)) return Format::kineto;
    return Format::native;
}

Trace import_files(const std::vector<std::string>& files, const std::string& source, const TraceImportOptions& options) {
    std::vector<ImportedProgram> ranks;
    std::optional<Format> format;
    for (const std::string& file : files) {
        json doc;
        const std::string text = read_text_file(file);
        const Format f = format_of(text, file, doc);
        if (f == Format::native || (format && f != *format))
            throw InputError(SourceLocation{file, 0, 0}, "file",
                             "a Chakra or Kineto JSON trace like the other files of " + source, "another format");
        format = f;
        ranks.push_back(with_json_places(text, file, [&] { return import_kineto_rank(doc, text, file); }));
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

}  // namespace

Trace load_any_trace(const std::string& path, const TraceImportOptions& options) {
    if (std::optional<Trace> chakra = load_chakra_trace(path, options.ranks_present)) return std::move(*chakra);
    std::error_code ec;
    if (fs::is_directory(path, ec)) return import_files(directory_files(path), path, options);
    const std::string text = read_text_file(path);
    json doc;
    switch (format_of(text, path, doc)) {
        case Format::native:
            if (static_cast<int64_t>(text.size()) > limits::kMaxNativeTraceBytes)
                throw InputError(SourceLocation{path, 0, 0}, "file",
                                 fmt::format("a native trace of at most {} MiB (the native trace size limit: its "
                                             "YAML reader needs about 60 bytes of memory per byte)",
                                             limits::kMaxNativeTraceBytes >> 20),
                                 fmt::format("{} bytes", text.size()));
            return parse_trace(text, path);
        case Format::kineto: return import_files({path}, path, options);
    }
    return parse_trace(text, path);
}

}  // namespace collsim
