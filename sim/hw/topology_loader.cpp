#include "sim/hw/topology_loader.hpp"

#include <unordered_map>

#include <fmt/format.h>

#include "sim/core/yaml_fields.hpp"
#include "sim/hw/pcie.hpp"
#include "sim/hw/routes.hpp"

namespace collsim {

namespace {

std::optional<Device> read_device(YamlFields& f, const YAML::Node& n, const std::string& path) {
    if (!f.expect_map(n, path)) return std::nullopt;
    f.check_keys(n, path, {"name", "kind", "latency", "memory_bandwidth", "in_network_reduction", "arch"});
    auto name = f.string(n, path, "name", true);
    auto kind_text = f.string(n, path, "kind", true);
    auto latency = f.time(n, path, "latency", false);
    auto membw = f.bandwidth(n, path, "memory_bandwidth", false);
    std::optional<DeviceKind> kind;
    if (kind_text) {
        kind = device_kind_from(*kind_text);
        if (!kind) f.error(n["kind"], path + ".kind", std::string(device_kind_choices()), "'" + *kind_text + "'");
    }
    if (kind == DeviceKind::gpu && !n["memory_bandwidth"])
        f.error(n, path + ".memory_bandwidth", "the GPU's memory bandwidth, like '3.35TB/s' (required for gpu)",
                "no such field");
    if (kind && kind != DeviceKind::gpu && n["memory_bandwidth"])
        f.error(n["memory_bandwidth"], path + ".memory_bandwidth", "memory_bandwidth only on a gpu",
                fmt::format("it on a {}", to_string(*kind)));
    auto reduction = f.boolean(n, path, "in_network_reduction", false);
    if (reduction && *reduction && kind && kind != DeviceKind::nvswitch && kind != DeviceKind::network_switch)
        f.error(n["in_network_reduction"], path + ".in_network_reduction",
                "in_network_reduction only on an nvswitch or a switch", fmt::format("it on a {}", to_string(*kind)));
    auto arch_text = f.string(n, path, "arch", false);
    std::optional<GpuArch> arch;
    if (arch_text) {
        arch = gpu_arch_from(*arch_text);
        if (!arch) f.error(n["arch"], path + ".arch", std::string(gpu_arch_choices()), "'" + *arch_text + "'");
        if (kind && kind != DeviceKind::gpu)
            f.error(n["arch"], path + ".arch", "arch only on a gpu", fmt::format("it on a {}", to_string(*kind)));
    }
    if (!name || !kind) return std::nullopt;
    Device d;
    d.arch = arch.value_or(GpuArch::unknown);
    d.in_network_reduction = reduction.value_or(false);
    d.name = *name;
    d.kind = *kind;
    d.forwarding_latency = latency.value_or(Time{});
    if (membw) d.memory_bandwidth = *membw;
    d.where = f.at(n);
    return d;
}

std::optional<Link> read_link(YamlFields& f, const YAML::Node& n, const std::string& path,
                              const std::unordered_map<std::string, DeviceId>& ids) {
    if (!f.expect_map(n, path)) return std::nullopt;
    f.check_keys(n, path, {"a", "b", "kind", "bandwidth", "gen", "lanes", "latency"});
    Link l;
    bool ok = true;
    for (const char* end : {"a", "b"}) {
        auto name = f.string(n, path, end, true);
        if (!name) {
            ok = false;
            continue;
        }
        auto it = ids.find(*name);
        if (it == ids.end()) {
            f.error(n[end], path + "." + end, "the name of a device declared under devices", "'" + *name + "'");
            ok = false;
            continue;
        }
        (std::string_view(end) == "a" ? l.a : l.b) = it->second;
    }
    if (ok && l.a == l.b) {
        f.error(n["b"], path + ".b", "a device other than a (a link joins two devices)", describe_node(n["b"]));
        ok = false;
    }
    auto kind_text = f.string(n, path, "kind", true);
    if (kind_text) {
        auto kind = link_kind_from(*kind_text);
        if (kind) {
            l.kind = *kind;
        } else {
            f.error(n["kind"], path + ".kind", std::string(link_kind_choices()), "'" + *kind_text + "'");
            ok = false;
        }
    } else {
        ok = false;
    }
    auto latency = f.time(n, path, "latency", true);
    ok = ok && latency.has_value();
    l.latency = latency.value_or(Time{});

    const bool by_lanes = n["gen"] || n["lanes"];
    if (by_lanes && n["bandwidth"]) {
        f.error(n["bandwidth"], path + ".bandwidth", "either bandwidth or gen + lanes, not both",
                describe_node(n["bandwidth"]));
        return std::nullopt;
    }
    if (by_lanes) {
        if (kind_text && *kind_text != "pcie")
            f.error(n, path + ".gen", "gen and lanes only on a pcie link", "a " + *kind_text + " link");
        auto gen = f.integer(n, path, "gen", true);
        auto lanes = f.integer(n, path, "lanes", true);
        std::optional<Bandwidth> bw;
        if (gen) {
            bw = pcie_bandwidth(static_cast<int>(*gen), 1);
            if (!bw) f.error(n["gen"], path + ".gen", "a PCIe generation from 1 to 6", describe_node(n["gen"]));
        }
        if (lanes && !valid_pcie_lanes(static_cast<int>(*lanes)))
            f.error(n["lanes"], path + ".lanes", "a lane count of 1, 2, 4, 8, 16 or 32", describe_node(n["lanes"]));
        if (!gen || !lanes || !bw || !valid_pcie_lanes(static_cast<int>(*lanes))) return std::nullopt;
        l.pcie_gen = static_cast<int>(*gen);
        l.pcie_lanes = static_cast<int>(*lanes);
        l.bandwidth = *pcie_bandwidth(l.pcie_gen, l.pcie_lanes);
    } else {
        auto bw = f.bandwidth(n, path, "bandwidth", true);
        if (!bw) return std::nullopt;
        l.bandwidth = *bw;
    }
    l.where = f.at(n);
    if (!ok) return std::nullopt;
    return l;
}

void check_gpus_connected(YamlFields& f, const Topology& topo, const YAML::Node& devices) {
    const auto& gpus = topo.gpus();
    Routes routes(topo);
    for (std::size_t i = 1; i < gpus.size(); ++i) {
        DeviceId g = gpus[i];
        if (routes.reachable(gpus[0], g) && routes.reachable(g, gpus[0])) continue;
        // Locate the device entry by index to point at it.
        f.error(devices[static_cast<std::size_t>(g)], fmt::format("devices[{}]", g),
                fmt::format("a GPU connected to the other GPUs (through links and non-GPU devices)"),
                fmt::format("no path between '{}' and '{}'", topo.device(gpus[0]).name, topo.device(g).name));
    }
}

Topology build(const YAML::Node& root, const std::string& file) {
    YamlFields f(file);
    if (!f.expect_map(root, "topology")) f.throw_if_errors();
    f.check_keys(root, "topology", {"name", "description", "devices", "links"});
    auto name = f.string(root, "topology", "name", true);
    YAML::Node devs = root["devices"], links = root["links"];
    if (!devs) f.error(root, "topology.devices", "a list of devices (required)", "no such field");
    if (!links) f.error(root, "topology.links", "a list of links (required)", "no such field");
    f.throw_if_errors();
    if (!f.expect_sequence(devs, "devices") | !f.expect_sequence(links, "links")) f.throw_if_errors();

    std::vector<Device> devices;
    std::unordered_map<std::string, DeviceId> ids;
    bool devices_complete = true;
    for (std::size_t i = 0; i < devs.size(); ++i) {
        std::string path = fmt::format("devices[{}]", i);
        auto d = read_device(f, devs[i], path);
        if (!d) {
            devices_complete = false;
            continue;
        }
        if (ids.count(d->name)) {
            f.error(devs[i]["name"], path + ".name", "a device name not used before",
                    fmt::format("'{}', already declared at line {}", d->name,
                                devices[ids[d->name]].where.line));
            devices_complete = false;
            continue;
        }
        ids.emplace(d->name, static_cast<DeviceId>(devices.size()));
        devices.push_back(std::move(*d));
    }
    std::vector<Link> built;
    for (std::size_t i = 0; i < links.size(); ++i) {
        auto l = read_link(f, links[i], fmt::format("links[{}]", i), ids);
        if (l) built.push_back(*l);
    }
    std::size_t gpu_count = 0;
    for (const auto& d : devices) gpu_count += d.kind == DeviceKind::gpu;
    if (devices_complete && gpu_count == 0) f.error(devs, "devices", "at least one device of kind gpu", "none");
    f.throw_if_errors();

    Topology topo(*name, file, std::move(devices), std::move(built));
    check_gpus_connected(f, topo, devs);
    f.throw_if_errors();
    return topo;
}

}  // namespace

Topology parse_topology(const std::string& yaml_text, const std::string& name) {
    return build(load_yaml_text(yaml_text, name), name);
}

Topology load_topology(const std::string& path) { return build(load_yaml_file(path), path); }

}  // namespace collsim
