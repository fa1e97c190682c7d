#include "sim/hw/fabric.hpp"

#include <array>
#include <utility>

#include <fmt/format.h>

#include "sim/hw/element_reader.hpp"

namespace collsim {

namespace {
constexpr std::array<std::pair<std::string_view, FabricKind>, 4> kKinds{{
    {"fat_tree", FabricKind::fat_tree},
    {"rail_fat_tree", FabricKind::rail_fat_tree},
    {"torus", FabricKind::torus},
    {"ring", FabricKind::ring},
}};

bool is_tree(FabricKind k) { return k == FabricKind::fat_tree || k == FabricKind::rail_fat_tree; }

std::optional<PortRatio> parse_ratio(const std::string& s) {
    auto colon = s.find(':');
    if (colon == std::string::npos) return std::nullopt;
    PortRatio r;
    try {
        std::size_t used_down = 0, used_up = 0;
        r.down = std::stoll(s.substr(0, colon), &used_down);
        r.up = std::stoll(s.substr(colon + 1), &used_up);
        if (used_down != colon || used_up != s.size() - colon - 1) return std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if (r.down < r.up || r.up < 1) return std::nullopt;
    return r;
}

std::optional<Link> read_link_spec(YamlFields& f, const YAML::Node& n, const std::string& path) {
    if (!f.expect_map(n, path)) return std::nullopt;
    f.check_keys(n, path, {"kind", "bandwidth", "gen", "lanes", "latency"});
    return read_link_properties(f, n, path);
}

void read_switch(YamlFields& f, const YAML::Node& n, const std::string& path, FabricSpec& spec) {
    if (!n) {
        f.error(spec.node, path, "the fabric's switch properties, like {latency: 300ns} (required)", "no such field");
        return;
    }
    if (!f.expect_map(n, path)) return;
    f.check_keys(n, path, {"kind", "latency", "in_network_reduction"});
    // NVLink switch systems (GB200 NVL72) are fabrics of NVSwitch chips.
    if (auto kind = f.string(n, path, "kind", false)) {
        if (*kind == "switch" || *kind == "nvswitch")
            spec.switch_kind = *kind == "switch" ? DeviceKind::network_switch : DeviceKind::nvswitch;
        else
            f.error(n["kind"], path + ".kind", "switch or nvswitch", "'" + *kind + "'");
    }
    spec.switch_latency = f.time(n, path, "latency", true).value_or(Time{});
    spec.in_network_reduction = f.boolean(n, path, "in_network_reduction", false).value_or(false);
}

std::optional<int> positive(YamlFields& f, const YAML::Node& n, const std::string& path, const char* key,
                            bool required, int64_t max) {
    auto v = f.integer(n, path, key, required);
    if (!v) return std::nullopt;
    if (*v < 1 || *v > max) {
        f.error(n[key], path + "." + key, fmt::format("an integer from 1 to {}", max), describe_node(n[key]));
        return std::nullopt;
    }
    return static_cast<int>(*v);
}

// Tree parameters: tiers, radix, oversubscription per tier below the top.
bool read_tree(YamlFields& f, const YAML::Node& n, const std::string& path, FabricSpec& spec) {
    auto tiers = positive(f, n, path, "tiers", true, 3);
    auto radix = positive(f, n, path, "radix", true, 1 << 16);
    if (!tiers || !radix) return false;
    spec.tiers = *tiers;
    spec.radix = *radix;
    if (spec.tiers > 1 && spec.radix % 2 != 0) {
        f.error(n["radix"], path + ".radix", "an even radix (half of a switch's ports face down, half up)",
                describe_node(n["radix"]));
        return false;
    }
    spec.oversubscription.assign(static_cast<std::size_t>(spec.tiers - 1), PortRatio{});
    YAML::Node o = n["oversubscription"];
    if (!o) return true;
    // One ratio for every tier below the top: `--set fabrics.ib.oversubscription=2:1`.
    if (o.IsScalar()) {
        auto r = parse_ratio(o.Scalar());
        if (!r)
            f.error(o, path + ".oversubscription", "a ratio of down to up ports of at least 1:1, like '2:1'",
                    describe_node(o));
        else
            spec.oversubscription.assign(spec.oversubscription.size(), *r);
        return r.has_value();
    }
    if (!f.expect_sequence(o, path + ".oversubscription")) return false;
    if (o.size() != spec.oversubscription.size()) {
        f.error(o, path + ".oversubscription",
                fmt::format("one ratio per tier below the top ({} for {} tiers)", spec.tiers - 1, spec.tiers),
                fmt::format("{} ratios", o.size()));
        return false;
    }
    bool ok = true;
    for (std::size_t i = 0; i < o.size(); ++i) {
        auto r = o[i].IsScalar() ? parse_ratio(o[i].Scalar()) : std::nullopt;
        if (!r) {
            f.error(o[i], fmt::format("{}.oversubscription[{}]", path, i),
                    "a ratio of down to up ports of at least 1:1, like '2:1'", describe_node(o[i]));
            ok = false;
            continue;
        }
        spec.oversubscription[i] = *r;
    }
    return ok;
}

bool read_torus(YamlFields& f, const YAML::Node& n, const std::string& path, FabricSpec& spec) {
    spec.wrap = f.boolean(n, path, "wrap", false).value_or(true);
    if (spec.kind == FabricKind::ring) {
        spec.dims = {static_cast<int>(spec.endpoints.size())};
        return true;
    }
    YAML::Node dims = n["dims"];
    if (!dims) {
        f.error(n, path + ".dims", "the routers per dimension, like [4, 4, 4] (required)", "no such field");
        return false;
    }
    if (!f.expect_sequence(dims, path + ".dims")) return false;
    bool ok = dims.size() > 0;
    if (!ok) f.error(dims, path + ".dims", "at least one dimension", "an empty list");
    int64_t routers = 1;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        YAML::Node di = dims[i];
        int64_t v = 0;
        try {
            v = di.IsScalar() ? std::stoll(di.Scalar()) : 0;
        } catch (const std::exception&) {
            v = 0;
        }
        if (v < 1 || v > (1 << 20) || std::to_string(v) != di.Scalar()) {
            f.error(di, fmt::format("{}.dims[{}]", path, i), "a positive number of routers", describe_node(di));
            ok = false;
            continue;
        }
        spec.dims.push_back(static_cast<int>(v));
        routers *= v;
    }
    if (ok && routers != static_cast<int64_t>(spec.endpoints.size())) {
        f.error(dims, path + ".dims", fmt::format("dimensions whose product is the {} endpoints", spec.endpoints.size()),
                fmt::format("{} routers", routers));
        ok = false;
    }
    return ok;
}
}  // namespace

Device fabric_switch(const FabricSpec& spec, std::string name) {
    Device d;
    d.name = std::move(name);
    d.kind = spec.switch_kind;
    d.forwarding_latency = spec.switch_latency;
    d.in_network_reduction = spec.in_network_reduction;
    d.where = spec.where;
    return d;
}

void expand_fabric(YamlFields& f, FragmentBuilder& b, const YAML::Node& n, const std::string& path) {
    if (!f.expect_map(n, path)) return;
    FabricSpec spec;
    spec.node = n;
    spec.path = path;
    spec.where = f.at(n);
    auto name = f.string(n, path, "name", true);
    auto kind = f.string(n, path, "kind", true);
    std::optional<FabricKind> k;
    for (const auto& [text, value] : kKinds)
        if (kind && *kind == text) k = value;
    if (kind && !k) f.error(n["kind"], path + ".kind", "one of fat_tree, rail_fat_tree, torus, ring", "'" + *kind + "'");
    if (!k) return;
    spec.kind = *k;
    spec.kind_name = *kind;
    if (is_tree(*k))
        f.check_keys(n, path,
                     {"name", "kind", "endpoints", "link", "endpoint_link", "switch", "planes", "tiers", "radix",
                      "oversubscription"});
    else if (*k == FabricKind::torus)
        f.check_keys(n, path, {"name", "kind", "endpoints", "link", "endpoint_link", "switch", "dims", "wrap"});
    else
        f.check_keys(n, path, {"name", "kind", "endpoints", "link", "endpoint_link", "switch", "wrap"});

    auto endpoints = f.string(n, path, "endpoints", true);
    if (endpoints) {
        spec.endpoints = b.match(NameGlob(*endpoints));
        if (spec.endpoints.empty())
            f.error(n["endpoints"], path + ".endpoints", "a pattern matching at least one declared device",
                    fmt::format("'{}', which matches nothing", *endpoints));
    }
    std::optional<Link> link;
    if (!n["link"])
        f.error(n, path + ".link", "the properties of the fabric's links (required)", "no such field");
    else
        link = read_link_spec(f, n["link"], path + ".link");
    std::optional<Link> endpoint_link = link;
    if (n["endpoint_link"]) endpoint_link = read_link_spec(f, n["endpoint_link"], path + ".endpoint_link");
    read_switch(f, n["switch"], path + ".switch", spec);
    if (is_tree(*k)) spec.planes = positive(f, n, path, "planes", false, 64).value_or(1);
    const bool shape_ok = is_tree(*k) ? read_tree(f, n, path, spec) : read_torus(f, n, path, spec);
    if (!name || !link || !endpoint_link || !shape_ok || spec.endpoints.empty()) return;
    spec.name = *name;
    spec.link = *link;
    spec.endpoint_link = *endpoint_link;
    if (is_tree(*k))
        build_fat_tree(f, b, spec);
    else
        build_torus(f, b, spec);
}

}  // namespace collsim
