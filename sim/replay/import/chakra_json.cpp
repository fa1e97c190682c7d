#include "sim/replay/import/chakra_json.hpp"

#include <fmt/format.h>

#include "sim/core/json_places.hpp"
#include "sim/replay/import/chakra_graph.hpp"

namespace collsim {

namespace {
using nlohmann::json;

[[noreturn]] void bad_chakra_json(const std::string& file, const std::string& field, std::string expected,
                                  const json& found) {
    throw InputError(SourceLocation{file, 0, 0}, field, std::move(expected), found.is_null() ? "nothing" : found.dump());
}

std::optional<uint64_t> optional_unsigned(const json& node, const char* key, const std::string& file,
                                          const std::string& path) {
    if (!node.contains(key)) return std::nullopt;
    const json& v = node[key];
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
        bad_chakra_json(file, path + "." + key, "an integer that is not negative", v);
    return v.get<uint64_t>();
}

uint64_t required_unsigned(const json& node, const char* key, const std::string& file, const std::string& path) {
    const auto v = optional_unsigned(node, key, file, path);
    if (!v) bad_chakra_json(file, path + "." + key, "an integer that is not negative", json());
    return *v;
}

ChakraNode chakra_json_node(const json& n, const std::string& file, const std::string& path) {
    if (!n.is_object()) bad_chakra_json(file, path, "a node", n);
    ChakraNode node;
    node.where = path;
    node.id = required_unsigned(n, "Id", file, path);
    node.type = required_unsigned(n, "NodeType", file, path);
    if (n.contains("Name")) {
        if (!n["Name"].is_string()) bad_chakra_json(file, path + ".Name", "a string", n["Name"]);
        node.name = n["Name"].get<std::string>();
    }
    if (n.contains("is_cpu_op")) {
        if (!n["is_cpu_op"].is_boolean()) bad_chakra_json(file, path + ".is_cpu_op", "true or false", n["is_cpu_op"]);
        node.is_cpu_op = n["is_cpu_op"].get<bool>();
    }
    node.duration_us = optional_unsigned(n, "runtime", file, path).value_or(0);
    node.comm_type = optional_unsigned(n, "comm_type", file, path);
    node.comm_size = optional_unsigned(n, "comm_size", file, path);
    node.comm_src = optional_unsigned(n, "comm_src", file, path);
    node.comm_dst = optional_unsigned(n, "comm_dst", file, path);
    const json& d = n.contains("data_deps") ? n["data_deps"] : json::array();
    if (!d.is_array()) bad_chakra_json(file, path + ".data_deps", "a list of node Ids", d);
    for (const json& id : d)
        if (id.is_number_unsigned()) node.data_deps.push_back(id.get<uint64_t>());
        else ++node.unnamed_deps;
    return node;
}
}  // namespace

bool is_chakra_json(const json& doc) { return doc.is_object() && doc.contains("workload_graph"); }

ImportedProgram import_chakra_rank(const json& doc, const std::string& text, const std::string& file, int rank) {
    const json& nodes = doc["workload_graph"];
    if (!nodes.is_array()) bad_chakra_json(file, "workload_graph", "a list of nodes", nodes);
    ChakraGraph g;
    g.file = file;
    g.format = "Chakra JSON";
    g.list = "workload_graph";
    g.id_field = "Id";
    g.type_field = "NodeType";
    g.runtime_field = "runtime";
    if (doc.contains("ngpus")) {
        const json& n = doc["ngpus"];
        if (!n.is_number_integer() || n.get<int64_t>() < 1 || n.get<int64_t>() > kMaxImportedRanks)
            bad_chakra_json(file, "ngpus", fmt::format("a number of GPUs from 1 to {}", kMaxImportedRanks), n);
        g.world = n.get<int>();
    }
    g.nodes.reserve(nodes.size());
    const std::vector<SourceLocation> places = json_element_places(text, "workload_graph", file, nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        g.nodes.push_back(chakra_json_node(nodes[i], file, fmt::format("workload_graph[{}]", i)));
        g.nodes.back().at = places[i];
    }
    return chakra_program(g, rank);
}

}  // namespace collsim
