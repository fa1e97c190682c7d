#pragma once
// Builds a native trace from its parts, in the order a reader meets them: the
// header (ranks, gpu, communicators), then each program one op at a time, then
// overrides and the checks. Shared by the document loader (trace_loader.cpp,
// YAML and small JSON) and the streaming JSON loader (trace_stream.cpp), so
// that both give the same trace and the same errors.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/yaml_fields.hpp"
#include "sim/replay/op_reader.hpp"
#include "sim/replay/trace.hpp"

namespace collsim {

// A program and, where overrides may need them, its ops' nodes.
struct ProgramSource {
    std::shared_ptr<Program> program;
    std::vector<YAML::Node> op_nodes;
};

// One program's ops, read one at a time; `after` names are resolved at the end.
class ProgramReader {
public:
    // `path`: the program's field ("program", "programs[2].ops"); `keep_nodes`:
    // keep each op's node for overrides (the document loader).
    ProgramReader(std::string path, bool keep_nodes);
    void add(YamlFields& f, const YAML::Node& op, Trace& t);
    std::size_t size() const { return after_.size(); }
    const std::string& path() const { return path_; }
    // The program, or nullopt when an op was wrong (the errors are in `f`).
    std::optional<ProgramSource> finish(YamlFields& f);

private:
    std::string path_;
    bool keep_nodes_;
    ProgramSource src_;
    std::map<std::string, OpIndex> by_name_;
    std::vector<std::vector<AfterName>> after_;
    bool ok_ = true;
};

class TraceBuilder {
public:
    explicit TraceBuilder(const std::string& name);

    // Unknown top-level keys.
    static void check_keys(YamlFields& f, const YAML::Node& root);
    // name, ranks, gpu and communicators from the top-level mapping; throws
    // InputErrors when the ranks or communicators are wrong (ops need them).
    void read_header(YamlFields& f, const YAML::Node& root);
    bool has_header() const { return !ranks_of_.empty(); }
    Trace& trace() { return t_; }

    // `program`: every rank runs it.
    void assign_all(std::optional<ProgramSource> src);
    // programs[i]: its ranks, from the entry's mapping (`has_ops`: its ops
    // were there, read separately or not).
    std::optional<std::vector<int>> entry_ranks(YamlFields& f, const YAML::Node& entry, const std::string& path,
                                                bool has_ops);
    void assign(std::optional<ProgramSource> src, const std::vector<int>& ranks);
    // program and programs given as nodes of `root`.
    void read_programs(YamlFields& f, const YAML::Node& root);

    // Checks that every rank has a program, applies the overrides, checks the
    // trace; throws InputErrors with every error found.
    Trace finish(YamlFields& f, const YAML::Node& root);

private:
    Trace t_;
    std::vector<std::unique_ptr<ProgramSource>> owned_;
    std::vector<ProgramSource*> ranks_of_;  // rank -> its program's source
};

// The ops of a program given as a node (a list), read into `reader`.
std::optional<ProgramSource> read_program_node(YamlFields& f, const YAML::Node& ops, ProgramReader reader, Trace& t);

}  // namespace collsim
