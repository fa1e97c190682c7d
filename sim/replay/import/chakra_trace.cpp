#include "sim/replay/import/chakra_trace.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/core/input_format.hpp"
#include "sim/core/json_input.hpp"
#include "sim/core/json_places.hpp"
#include "sim/core/text_file.hpp"
#include "sim/replay/import/chakra_et.hpp"
#include "sim/replay/import/chakra_graph.hpp"
#include "sim/replay/import/chakra_json.hpp"
#include "sim/replay/import/pytorch_et.hpp"
#include "sim/replay/import/trace_set.hpp"

namespace collsim {

namespace {
namespace fs = std::filesystem;
using nlohmann::json;

enum class ChakraForm { none, et, json, pytorch_et };

std::string_view form_name(ChakraForm f) {
    switch (f) {
        case ChakraForm::et: return "a Chakra ET protobuf";
        case ChakraForm::json: return "a Chakra JSON trace";
        case ChakraForm::pytorch_et: return "a PyTorch execution trace";
        default: return "another format";
    }
}

// The first bytes of a file: enough to tell the forms apart without reading
// a large trace of another format twice. Chakra's writers put the keys that
// tell them ("workload_graph"; "schema" ... "nodes") within the first few
// hundred bytes.
std::string file_head(const std::string& path) { return read_file_head(path, 64 << 10); }

// Chakra's JSON opens with "workload_graph"; an execution trace with
// "schema", "pid", "time" and "start_ts" before its "nodes".
ChakraForm form_of_head(const std::string& head) {
    if (sniff_input_format(head) == InputFormat::chakra_et) return ChakraForm::et;
    if (!looks_like_json(head)) return ChakraForm::none;
    if (head.find("\"workload_graph\"") != std::string::npos) return ChakraForm::json;
    if (head.find("\"schema\"") != std::string::npos && head.find("\"nodes\"") != std::string::npos)
        return ChakraForm::pytorch_et;
    return ChakraForm::none;
}

ImportedProgram import_rank(ChakraForm form, const RankFile& f) {
    const std::string text = read_text_file(f.path);
    if (form == ChakraForm::et) return import_chakra_et_rank(text, f.path, f.rank);
    const json doc = parse_json_input(text, f.path, std::string(form_name(form)));
    if (form == ChakraForm::json ? !is_chakra_json(doc) : !is_pytorch_et(doc))
        throw InputError(SourceLocation{f.path, 1, 1}, "file", std::string(form_name(form)),
                         "JSON without its keys (workload_graph; schema and nodes)");
    return with_json_places(text, f.path, [&] {
        return form == ChakraForm::json ? import_chakra_rank(doc, text, f.path, f.rank)
                                        : import_pytorch_et_rank(doc, text, f.path, f.rank);
    });
}

// Notes that every rank file of a set gave alike are said once, for the set.
void merge_rank_notes(std::vector<ImportedProgram>& ranks, const std::vector<RankFile>& files,
                      const std::string& source) {
    std::map<std::string, std::size_t> count;  // the note without its file
    for (std::size_t r = 0; r < ranks.size(); ++r)
        for (const std::string& n : ranks[r].notes)
            if (n.starts_with(files[r].path + ": ")) ++count[n.substr(files[r].path.size() + 2)];
    for (std::size_t r = 0; r < ranks.size(); ++r)
        std::erase_if(ranks[r].notes, [&](const std::string& n) {
            return ranks.size() > 1 && n.starts_with(files[r].path + ": ") &&
                   count[n.substr(files[r].path.size() + 2)] == ranks.size();
        });
    for (const auto& [text, n] : count)
        if (ranks.size() > 1 && n == ranks.size())
            ranks[0].notes.push_back(fmt::format("{}: in each of its {} rank files: {}", source, n, text));
}

Trace import_set(const std::vector<RankFile>& files, ChakraForm form, const std::string& source,
                 bool ranks_present) {
    std::vector<ImportedProgram> ranks;
    std::size_t ops = 0;
    for (const RankFile& f : files) {
        const ChakraForm other = form_of_head(file_head(f.path));
        if (other != form)
            throw InputError(SourceLocation{f.path, 1, 1}, "file",
                             fmt::format("{} like the other rank files of {}", form_name(form), source),
                             std::string(form_name(other)));
        ranks.push_back(import_rank(form, f));
        check_imported_ops(ops += ranks.back().program.ops.size(), f.path);
    }
    merge_rank_notes(ranks, files, source);
    return assemble_trace(std::move(ranks), fs::path(source).filename().string(), source, ranks_present);
}
}  // namespace

std::optional<Trace> load_chakra_trace(const std::string& path, bool ranks_present) {
    std::error_code ec;
    std::vector<RankFile> files;
    if (fs::is_directory(path, ec))
        files = folder_rank_files(path, [](const std::string& p) { return form_of_head(file_head(p)) != ChakraForm::none; });
    else if (const std::string head = file_head(path); form_of_head(head) != ChakraForm::none)
        files = rank_files_of(path);
    else if (fs::exists(path, ec))  // an archive, XML, ...: named, not parsed as YAML
        refuse_foreign_format(head, path, "a workload trace (native YAML or JSON, Chakra, PyTorch ET, Kineto)");
    if (files.empty()) return std::nullopt;
    return import_set(files, form_of_head(file_head(files.front().path)), path, ranks_present);
}

}  // namespace collsim
