// Topology schema v1 (topologies/README.md): parse, validate, build.
//
// A file's body is expanded in a fixed order, so names used later exist:
// explicit devices, node instances, generated fabrics, explicit links,
// overrides. GPU ranks follow the resulting device order: explicit GPUs first,
// then node instances (node-major, then the template's device order).
#include "sim/hw/topology_loader.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "sim/core/input_format.hpp"
#include "sim/core/limits.hpp"
#include "sim/hw/connectivity.hpp"
#include "sim/hw/element_reader.hpp"
#include "sim/hw/fabric.hpp"
#include "sim/core/text_file.hpp"
#include "sim/hw/fragment.hpp"
#include "sim/hw/nccl_topo.hpp"
#include "sim/hw/overrides.hpp"
#include "sim/hw/topology_settings.hpp"

namespace collsim {

namespace {

namespace fs = std::filesystem;

using limits::kMaxNodeInstances;

struct TemplateEntry {
    YAML::Node node;
    std::string path;
    enum class State { pending, expanding, done } state = State::pending;
    std::optional<Fragment> fragment;
};

class Loader {
public:
    Loader(std::string file, std::vector<std::string>& files) : f_(file), file_(std::move(file)), files_(files) {}

    // Expands a whole file; `name` receives its name field.
    Fragment expand_file(const YAML::Node& root, std::string& name);
    YamlFields& fields() { return f_; }

private:
    Fragment expand_body(const YAML::Node& body, const std::string& prefix);
    void read_templates(const YAML::Node& map);
    const Fragment* resolve(const std::string& name, const YAML::Node& use, const std::string& use_path);
    std::optional<Fragment> expand_template(TemplateEntry& t);
    std::optional<Fragment> expand_template_file(const YAML::Node& file_node, const std::string& path);
    void add_nodes(FragmentBuilder& b, const YAML::Node& list, const std::string& path);

    YamlFields f_;
    std::string file_;
    std::vector<std::string>& files_;  // files being expanded, outermost first (include cycles)
    std::map<std::string, TemplateEntry> templates_;
    std::vector<std::string> expanding_;  // template names being expanded (template cycles)
};

std::string join_cycle(const std::vector<std::string>& chain, std::size_t from, const std::string& again) {
    std::string out;
    for (std::size_t i = from; i < chain.size(); ++i) out += chain[i] + " -> ";
    return out + again;
}

Fragment Loader::expand_file(const YAML::Node& root, std::string& name) {
    if (!f_.expect_map(root, "topology")) return {};
    f_.check_keys(root, "topology",
                  {"schema", "name", "description", "templates", "devices", "nodes", "fabrics", "links", "overrides"});
    if (auto schema = f_.integer(root, "topology", "schema", false); schema && *schema != 1)
        f_.error(root["schema"], "topology.schema", "schema version 1", describe_node(root["schema"]));
    name = f_.string(root, "topology", "name", true).value_or("");
    f_.string(root, "topology", "description", false);
    if (root["templates"]) read_templates(root["templates"]);
    Fragment frag = expand_body(root, "");
    // Templates nobody instantiated are still checked.
    for (auto& [key, t] : templates_)
        if (t.state == TemplateEntry::State::pending) resolve(key, t.node, t.path);
    return frag;
}

void Loader::read_templates(const YAML::Node& map) {
    if (!f_.expect_map(map, "templates")) return;
    for (const auto& kv : map) {
        const std::string key = kv.first.as<std::string>();
        templates_.emplace(key, TemplateEntry{kv.second, "templates." + key, TemplateEntry::State::pending, {}});
    }
}

const Fragment* Loader::resolve(const std::string& name, const YAML::Node& use, const std::string& use_path) {
    auto it = templates_.find(name);
    if (it == templates_.end()) {
        std::string known;
        for (const auto& [key, t] : templates_) known += (known.empty() ? "" : ", ") + key;
        f_.error(use, use_path, "the name of a template declared under templates" + (known.empty() ? "" : " (" + known + ")"),
                 "'" + name + "'");
        return nullptr;
    }
    TemplateEntry& t = it->second;
    if (t.state == TemplateEntry::State::expanding) {
        const auto from = std::find(expanding_.begin(), expanding_.end(), name) - expanding_.begin();
        f_.error(use, use_path, "templates that do not contain themselves (a tree of templates)",
                 "the cycle " + join_cycle(expanding_, static_cast<std::size_t>(from), name));
        return nullptr;
    }
    if (t.state == TemplateEntry::State::pending) {
        t.state = TemplateEntry::State::expanding;
        expanding_.push_back(name);
        t.fragment = expand_template(t);
        expanding_.pop_back();
        t.state = TemplateEntry::State::done;
    }
    return t.fragment ? &*t.fragment : nullptr;
}

std::optional<Fragment> Loader::expand_template(TemplateEntry& t) {
    if (!f_.expect_map(t.node, t.path)) return std::nullopt;
    if (t.node["file"]) {
        f_.check_keys(t.node, t.path, {"file", "description"});
        return expand_template_file(t.node["file"], t.path + ".file");
    }
    f_.check_keys(t.node, t.path, {"description", "devices", "nodes", "fabrics", "links", "overrides"});
    Fragment frag = expand_body(t.node, t.path + ".");
    if (frag.devices.empty()) {
        f_.error(t.node, t.path, "a template with at least one device", "none");
        return std::nullopt;
    }
    return frag;
}

// A template may be another topology file (a server defined once, used by
// every cluster built from it), named relative to the including file.
std::optional<Fragment> Loader::expand_template_file(const YAML::Node& file_node, const std::string& path) {
    if (!file_node.IsScalar()) {
        f_.error(file_node, path, "a topology file name", describe_node(file_node));
        return std::nullopt;
    }
    const fs::path target = fs::path(file_).parent_path() / file_node.Scalar();
    const std::string key = fs::weakly_canonical(target).string();
    if (auto hit = std::find(files_.begin(), files_.end(), key); hit != files_.end()) {
        std::vector<std::string> chain;
        for (const auto& p : files_) chain.push_back(fs::path(p).filename().string());
        f_.error(file_node, path, "a file that does not include itself",
                 "the cycle " + join_cycle(chain, static_cast<std::size_t>(hit - files_.begin()),
                                           fs::path(key).filename().string()));
        return std::nullopt;
    }
    if (!std::ifstream(target)) {
        f_.error(file_node, path, "a readable topology file", fmt::format("'{}' ({})", file_node.Scalar(), target.string()));
        return std::nullopt;
    }
    files_.push_back(key);
    Loader inner(target.string(), files_);
    std::optional<Fragment> frag;
    try {
        std::string ignored;
        frag = inner.expand_file(load_yaml_file(target.string()), ignored);
    } catch (const InputError& e) {
        f_.add(e);
    }
    files_.pop_back();
    const bool clean = inner.fields().ok();
    f_.absorb(inner.fields());
    if (!clean || !frag) return std::nullopt;
    return frag;
}

void Loader::add_nodes(FragmentBuilder& b, const YAML::Node& list, const std::string& path) {
    if (!f_.expect_sequence(list, path)) return;
    std::map<std::string, int64_t> next_index;  // per prefix, so groups keep counting
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string item = fmt::format("{}[{}]", path, i);
        const YAML::Node n = list[i];
        if (!f_.expect_map(n, item)) continue;
        f_.check_keys(n, item, {"template", "count", "prefix", "name"});
        auto tname = f_.string(n, item, "template", true);
        auto count = f_.integer(n, item, "count", false);
        auto prefix = f_.string(n, item, "prefix", false);
        auto name = f_.string(n, item, "name", false);
        if (count && (*count < 1 || *count > kMaxNodeInstances)) {
            f_.error(n["count"], item + ".count",
                     fmt::format("a node count from 1 to {} (the node instance limit)", kMaxNodeInstances),
                     describe_node(n["count"]));
            continue;
        }
        if (name && (prefix || count.value_or(1) != 1)) {
            f_.error(n["name"], item + ".name", "either name (one node) or prefix and count",
                     prefix ? "name with a prefix" : "name with a count above 1");
            continue;
        }
        if (!tname) continue;
        const Fragment* t = resolve(*tname, n["template"], item + ".template");
        if (!t) continue;
        if (name) {
            b.add_instance(*t, *name, *tname, n, item);
            continue;
        }
        // Refused before the copies are made: a 10^6-GPU cluster would take
        // minutes and gigabytes to build (issue 24).
        const int64_t devices = static_cast<int64_t>(b.device_count()) +
                                static_cast<int64_t>(t->devices.size()) * count.value_or(1);
        if (devices > limits::kMaxTopologyDevices) {
            f_.error(n["count"] ? n["count"] : n, item + ".count",
                     fmt::format("a topology of at most {} devices (the topology device limit)",
                                 limits::kMaxTopologyDevices),
                     fmt::format("{} devices with these {} x {}", devices, count.value_or(1), *tname));
            continue;
        }
        const std::string p = prefix.value_or("node");
        int64_t& next = next_index[p];
        for (int64_t k = 0; k < count.value_or(1); ++k) b.add_instance(*t, p + std::to_string(next++), *tname, n, item);
    }
}

Fragment Loader::expand_body(const YAML::Node& body, const std::string& prefix) {
    FragmentBuilder b(f_);
    if (YAML::Node devs = body["devices"]; devs && f_.expect_sequence(devs, prefix + "devices")) {
        for (std::size_t i = 0; i < devs.size(); ++i) {
            const std::string path = fmt::format("{}devices[{}]", prefix, i);
            if (auto d = read_device(f_, devs[i], path)) b.add_device(std::move(*d), path, devs[i]);
        }
    }
    if (body["nodes"]) add_nodes(b, body["nodes"], prefix + "nodes");
    if (YAML::Node fabrics = body["fabrics"]; fabrics && f_.expect_sequence(fabrics, prefix + "fabrics")) {
        for (std::size_t i = 0; i < fabrics.size(); ++i)
            expand_fabric(f_, b, fabrics[i], fmt::format("{}fabrics[{}]", prefix, i));
    }
    if (YAML::Node links = body["links"]; links && f_.expect_sequence(links, prefix + "links")) {
        auto find = [&](const std::string& name) { return b.find(name); };
        for (std::size_t i = 0; i < links.size(); ++i)
            if (auto l = read_link(f_, links[i], fmt::format("{}links[{}]", prefix, i), find)) b.add_link(*l);
    }
    if (body["overrides"]) apply_overrides(f_, b, body["overrides"], prefix + "overrides");
    return b.take();
}

void check_gpus_connected(YamlFields& f, const Topology& topo, const Fragment& frag) {
    constexpr std::size_t kMaxReported = 16;
    for (auto [earlier, gpu] : disconnected_gpu_pairs(topo, kMaxReported)) {
        const Device& d = topo.device(gpu);
        f.add(InputError(d.where, frag.origins[frag.origin[gpu]],
                         "a GPU connected to the other GPUs (through links and non-GPU devices)",
                         fmt::format("no path between '{}' and '{}'", topo.device(earlier).name, d.name)));
    }
}

Topology build(YAML::Node root, const std::string& file, const std::vector<std::string>& settings) {
    std::vector<std::string> files{fs::weakly_canonical(file).string()};
    Loader loader(file, files);
    YamlFields& f = loader.fields();
    apply_topology_settings(root, settings, f);
    f.throw_if_errors();
    std::string name;
    Fragment frag = loader.expand_file(root, name);
    f.throw_if_errors();
    if (std::none_of(frag.devices.begin(), frag.devices.end(),
                     [](const Device& d) { return d.kind == DeviceKind::gpu; })) {
        f.error(root["devices"] ? root["devices"] : root, root["devices"] ? "devices" : "topology",
                "at least one device of kind gpu", "none");
        f.throw_if_errors();
    }
    std::vector<uint32_t> origin = std::move(frag.origin);
    Topology topo(name, file, std::move(frag.devices), std::move(frag.links), std::move(frag.instances),
                  std::move(frag.fabrics));
    frag.origin = std::move(origin);
    check_gpus_connected(f, topo, frag);
    f.throw_if_errors();
    return topo;
}

}  // namespace

Topology parse_topology(const std::string& yaml_text, const std::string& name) {
    return build(load_yaml_text(yaml_text, name), name, {});
}

Topology load_topology(const std::string& path, std::vector<std::string>* notes,
                       const std::vector<std::string>& settings) {
    const std::string text = read_text_file(path);
    if (sniff_input_format(text) == InputFormat::nccl_topology_xml && notes) {
        NcclImport imported = import_nccl_topology(text, path, NcclImportOptions{});
        notes->insert(notes->end(), imported.notes.begin(), imported.notes.end());
        // Positions in errors, if any, are in the YAML the import wrote.
        const std::string as_yaml = path + " (imported)";
        return build(load_yaml_text(imported.yaml, as_yaml), path, settings);
    }
    refuse_foreign_format(text, path, notes ? "a topology: schema-v1 YAML or NCCL topology XML" : "a schema-v1 YAML topology",
                          "topology");
    return build(load_yaml_text(text, path), path, settings);
}

}  // namespace collsim
