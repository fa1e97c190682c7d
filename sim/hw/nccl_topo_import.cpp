#include "sim/hw/nccl_topo.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "sim/core/yaml_fields.hpp"
#include "sim/hw/nccl_topo_system.hpp"
#include "sim/hw/nccl_topo_yaml.hpp"

namespace collsim {

namespace {

void ncclxml_list(std::string& out, const char* key, const std::vector<std::string>& items, const std::string& indent) {
    out += indent + key + ":\n";
    for (const std::string& i : items) out += indent + "  - " + i + "\n";
}

// The fabrics of --fabric, each as one flow mapping. A fabric without an
// endpoint_link gets one at the NICs' speed from the dump (its `link` with
// that bandwidth), so the NICs' <net speed> is what joins the nodes.
std::vector<std::string> ncclxml_fabrics(const std::string& path, const nccl_topo::NodeYaml& node,
                                 std::vector<std::string>& notes) {
    YamlFields f(path);
    YAML::Node root = load_yaml_file(path);
    std::vector<std::string> out;
    if (f.expect_map(root, "fabric file")) {
        f.check_keys(root, "fabric file", {"fabrics"});
        if (!root["fabrics"]) f.error(root, "fabrics", "a list of fabrics joining the nodes", "no such key");
        else if (f.expect_sequence(root["fabrics"], "fabrics"))
            for (YAML::Node fab : root["fabrics"]) {
                std::set<int64_t> speeds;
                for (const auto& n : node.nics) speeds.insert(n.speed_mbps);
                if (fab.IsMap() && !fab["endpoint_link"] && fab["link"].IsMap() && speeds.size() == 1 &&
                    *speeds.begin() > 0) {
                    YAML::Node link = YAML::Clone(fab["link"]);
                    link["bandwidth"] = fmt::format("{}Gb/s", static_cast<double>(*speeds.begin()) / 1000);
                    fab["endpoint_link"] = link;
                    notes.push_back(fmt::format("{}: endpoint_link of fabric {} set to the NICs' speed, {}", path,
                                                fab["name"] ? fab["name"].as<std::string>() : "?",
                                                link["bandwidth"].as<std::string>()));
                }
                YAML::Node flow = YAML::Clone(fab);
                flow.SetStyle(YAML::EmitterStyle::Flow);
                YAML::Emitter e;
                e << flow;
                // yaml-cpp wraps long flow mappings; as one list item they go on one line.
                std::string one_line = e.c_str();
                std::replace(one_line.begin(), one_line.end(), '\n', ' ');
                out.push_back(std::move(one_line));
            }
    }
    f.throw_if_errors();
    return out;
}

}  // namespace

NcclImport import_nccl_topology(const std::string& text, const std::string& file, const NcclImportOptions& o) {
    if ((o.nodes > 0) != !o.fabric_file.empty())
        throw InputError(SourceLocation{}, o.nodes > 0 ? "--fabric" : "--nodes",
                         o.nodes > 0 ? "a YAML file with the fabrics joining the nodes (with --nodes)"
                                     : "a node count from 1 (with --fabric)",
                         "none");
    NcclImport r;
    const nccl_topo::System sys = nccl_topo::read_system(text, file, nccl_topo::ReadOptions{o.gpu_arch});
    r.notes = sys.notes;
    if (sys.skeleton)
        r.notes.push_back(fmt::format("{}: GPUs are PCI class codes only (an NCCL_TOPO_FILE skeleton; NCCL adds GPUs "
                                      "and NVLinks by probing): the import has no NVLink, arch {} from --gpu-arch",
                                      file, o.gpu_arch ? to_string(*o.gpu_arch) : "unknown"));
    const nccl_topo::NodeYaml node = node_yaml(sys, nccl_topo::NodeOptions{o.memory_bandwidth}, r.notes);
    const std::vector<std::string> joining = o.nodes > 0 ? ncclxml_fabrics(o.fabric_file, node, r.notes) : std::vector<std::string>{};
    const std::string name =
        o.name.empty() ? "imported-" + std::filesystem::path(file).stem().string() : o.name;

    std::string& y = r.yaml;
    y += fmt::format("# Imported by `collsim topo import` from {} ({}): {} GPUs", file, nccl_topo::kFormat, node.gpus);
    y += o.nodes > 0 ? fmt::format(" per node, {} nodes.\n", o.nodes) : ".\n";
    y += "# What the file did not say, and what was assumed:\n";
    for (const std::string& n : r.notes) y += "# - " + n + "\n";
    y += "schema: 1\nname: " + name + "\n";
    if (o.nodes == 0) {
        ncclxml_list(y, "devices", node.devices, "");
        ncclxml_list(y, "links", node.links, "");
        return r;
    }
    y += "templates:\n  node:\n";
    ncclxml_list(y, "devices", node.devices, "    ");
    ncclxml_list(y, "links", node.links, "    ");
    y += fmt::format("nodes:\n  - {{template: node, count: {}}}\n", o.nodes);
    ncclxml_list(y, "fabrics", joining, "");
    return r;
}

}  // namespace collsim
