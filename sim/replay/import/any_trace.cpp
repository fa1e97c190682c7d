#include "sim/replay/import/any_trace.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/core/json_input.hpp"
#include "sim/core/json_places.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/text_file.hpp"
#include "sim/replay/import/chakra_json.hpp"
#include "sim/replay/import/kineto_json.hpp"
#include "sim/replay/trace_loader.hpp"

namespace collsim {

namespace {
namespace fs = std::filesystem;
using nlohmann::json;

enum class Format { native, chakra, kineto };

Format format_of(const std::string& text, const std::string& name, json& doc) {
    if (!looks_like_json(text)) return Format::native;
    // A file named as JSON is read as JSON, so its errors are JSON's; a
    // native trace may also open with '{' (YAML's flow style): the YAML
    // reader reports where that breaks. The format shows in the top-level
    // keys: only a Chakra or Kineto document is held whole (a native one is
    // read again by the YAML reader, and two documents of a large trace did
    // not fit in memory, issue 24).
    const std::string expected = "a Chakra or Kineto JSON trace";
    const bool named_json = name.ends_with(".json") || name.ends_with(".json.gz");
    json outline;
    try {
        outline = parse_json_outline(text, name, expected);
    } catch (const InputError&) {
        if (named_json) throw;
        return Format::native;
    }
    const Format f = is_chakra_json(outline) ? Format::chakra : is_kineto_json(outline) ? Format::kineto : Format::native;
    if (f != Format::native) doc = parse_json_input(text, name, expected);
    return f;
}

// The rank in "chakra.3.json" or "trace.3.json.gz"; nullopt when the name has none.
std::optional<int> rank_in_name(const std::string& name, std::string* prefix = nullptr) {
    static const std::regex pattern(R"(^(.*)\.(\d+)\.json(\.gz)?$)");
    std::smatch m;
    if (!std::regex_match(name, m, pattern)) return std::nullopt;
    if (prefix) *prefix = m[1].str();
    return std::stoi(m[2].str());
}

ImportedProgram import_one(Format f, const json& doc, const std::string& file) {
    if (f == Format::kineto) return import_kineto_rank(doc, file);
    const auto rank = rank_in_name(fs::path(file).filename().string());
    return import_chakra_rank(doc, file, rank.value_or(0));
}

Trace import_files(const std::vector<std::string>& files, const std::string& source) {
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
        ranks.push_back(with_json_places(text, file, [&] { return import_one(f, doc, file); }));
    }
    return assemble_trace(std::move(ranks), fs::path(source).filename().string(), source);
}

std::vector<std::string> directory_files(const std::string& dir) {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (e.is_regular_file() && (name.ends_with(".json") || name.ends_with(".json.gz"))) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty())
        throw InputError(SourceLocation{dir, 0, 0}, "directory", "one .json or .json.gz trace per rank", "none");
    return files;
}

// NAME.0.json and its siblings NAME.1.json, ... (as long as they continue).
std::vector<std::string> chakra_siblings(const std::string& path) {
    const fs::path p(path);
    std::string prefix;
    const auto rank = rank_in_name(p.filename().string(), &prefix);
    if (!rank || *rank != 0) return {path};
    const std::string ext = p.filename().string().ends_with(".gz") ? ".json.gz" : ".json";
    std::vector<std::string> files;
    for (int r = 0;; ++r) {
        const fs::path sibling = p.parent_path() / fmt::format("{}.{}{}", prefix, r, ext);
        if (!fs::exists(sibling)) break;
        files.push_back(sibling.string());
    }
    return files;
}
}  // namespace

Trace load_any_trace(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return import_files(directory_files(path), path);
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
        case Format::kineto: return import_files({path}, path);
        case Format::chakra: return import_files(chakra_siblings(path), path);
    }
    return parse_trace(text, path);
}

}  // namespace collsim
