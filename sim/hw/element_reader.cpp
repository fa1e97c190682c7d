#include "sim/hw/element_reader.hpp"

#include <fmt/format.h>

#include "sim/hw/pcie.hpp"

namespace collsim {

std::optional<Device> read_device(YamlFields& f, const YAML::Node& n, const std::string& path) {
    if (!f.expect_map(n, path)) return std::nullopt;
    f.check_keys(n, path,
                 {"name", "kind", "latency", "memory_bandwidth", "in_network_reduction", "arch", "transport", "software_latency"});
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
    if (kind && kind != DeviceKind::gpu && kind != DeviceKind::root_complex && n["memory_bandwidth"])
        f.error(n["memory_bandwidth"], path + ".memory_bandwidth", "memory_bandwidth only on a gpu or a root_complex",
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
    auto transport_text = f.string(n, path, "transport", false);
    std::optional<NetTransport> transport;
    if (transport_text) {
        transport = net_transport_from(*transport_text);
        if (!transport)
            f.error(n["transport"], path + ".transport", std::string(net_transport_choices()), "'" + *transport_text + "'");
    }
    auto software_latency = f.time(n, path, "software_latency", false);
    for (const char* key : {"transport", "software_latency"})
        if (kind && kind != DeviceKind::nic && n[key])
            f.error(n[key], path + "." + key, std::string(key) + " only on a nic", fmt::format("it on a {}", to_string(*kind)));
    if (name && name->empty()) {
        f.error(n["name"], path + ".name", "a non-empty device name", "''");
        return std::nullopt;
    }
    if (!name || !kind) return std::nullopt;
    Device d;
    d.arch = arch.value_or(GpuArch::unknown);
    d.in_network_reduction = reduction.value_or(false);
    d.name = *name;
    d.kind = *kind;
    d.forwarding_latency = latency.value_or(Time{});
    if (membw) d.memory_bandwidth = *membw;
    d.transport = transport.value_or(NetTransport::ib);
    d.software_latency = software_latency.value_or(Time{});
    d.where = f.at(n);
    return d;
}

std::optional<Link> read_link_properties(YamlFields& f, const YAML::Node& n, const std::string& path) {
    Link l;
    bool ok = true;
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

std::optional<Link> read_link(YamlFields& f, const YAML::Node& n, const std::string& path,
                              const std::function<std::optional<DeviceId>(const std::string&)>& find) {
    if (!f.expect_map(n, path)) return std::nullopt;
    f.check_keys(n, path, {"a", "b", "kind", "bandwidth", "gen", "lanes", "latency"});
    DeviceId ends[2] = {0, 0};
    bool ok = true;
    for (int i = 0; i < 2; ++i) {
        const char* end = i == 0 ? "a" : "b";
        auto name = f.string(n, path, end, true);
        if (!name) {
            ok = false;
            continue;
        }
        auto id = find(*name);
        if (!id) {
            f.error(n[end], path + "." + end, "the name of a device declared under devices, nodes or fabrics",
                    "'" + *name + "'");
            ok = false;
            continue;
        }
        ends[i] = *id;
    }
    if (ok && ends[0] == ends[1]) {
        f.error(n["b"], path + ".b", "a device other than a (a link joins two devices)", describe_node(n["b"]));
        ok = false;
    }
    auto l = read_link_properties(f, n, path);
    if (!ok || !l) return std::nullopt;
    l->a = ends[0];
    l->b = ends[1];
    return l;
}

}  // namespace collsim
