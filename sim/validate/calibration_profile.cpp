#include "sim/validate/calibration_profile.hpp"

#include <array>
#include <set>

#include <fmt/format.h>

#include "sim/core/name_table.hpp"
#include "sim/core/yaml_fields.hpp"

namespace collsim {

namespace {

using namespace literals;

constexpr NameTable<NcclFamily, 7> kFamilies{{
    {"tree", NcclFamily::tree},
    {"ring", NcclFamily::ring},
    {"collnet_direct", NcclFamily::collnet_direct},
    {"collnet_chain", NcclFamily::collnet_chain},
    {"nvls", NcclFamily::nvls},
    {"nvls_tree", NcclFamily::nvls_tree},
    {"pat", NcclFamily::pat},
}};
constexpr std::array<std::string_view, 3> kClasses{"nvlink", "pci", "net"};
constexpr int kFormatVersion = 1;
// Sanity bounds: a launch latency beyond 10 ms or a per-step change beyond
// 1 ms is a unit mistake, not a calibration.
constexpr Time kMaxBaseLatency = 10_ms;
constexpr Time kMaxHopDelta = 1_ms;
constexpr Time kMaxLaunchPerGpu = 1_ms;

std::string family_choices() {
    std::string out = "one of";
    for (std::size_t i = 0; i < kFamilies.size(); ++i) out += (i ? ", " : " ") + std::string(kFamilies[i].first);
    return out;
}

class ProfileParser {
public:
    explicit ProfileParser(const std::string& file) : f_(file) {}

    Calibration parse(const YAML::Node& root) {
        Calibration c;
        if (!f_.expect_map(root, "profile")) f_.throw_if_errors();
        f_.check_keys(root, "profile",
                      {"collsim_calibration", "nccl_version", "fitted_from", "bandwidth_efficiency",
                       "p2p_bandwidth_efficiency", "nvls_bandwidth_efficiency", "hop_latency_delta", "launch_per_gpu", "base_latency",
                       "size_corrections"});
        if (auto v = f_.integer(root, "profile", "collsim_calibration", true); v && *v != kFormatVersion)
            f_.error(root["collsim_calibration"], "profile.collsim_calibration",
                     fmt::format("format version {}", kFormatVersion), std::to_string(*v));
        if (auto v = f_.string(root, "profile", "nccl_version", false)) c.nccl_version = *v;
        fitted_from(root["fitted_from"], c);
        if (const YAML::Node n = root["bandwidth_efficiency"]; n && f_.expect_map(n, "profile.bandwidth_efficiency")) {
            f_.check_keys(n, "profile.bandwidth_efficiency", {"nvlink", "pci", "net"});
            for (std::size_t k = 0; k < 3; ++k)
                if (auto v = factor(n, "profile.bandwidth_efficiency", kClasses[k], kMinEfficiencyFactor,
                                    kMaxEfficiencyFactor, false))
                    c.bandwidth_efficiency[k] = *v;
        }
        if (auto v = factor(root, "profile", "p2p_bandwidth_efficiency", kMinEfficiencyFactor, kMaxEfficiencyFactor,
                            false))
            c.p2p_bandwidth_efficiency = *v;
        if (auto v = factor(root, "profile", "nvls_bandwidth_efficiency", kMinEfficiencyFactor, kMaxEfficiencyFactor,
                            false))
            c.nvls_bandwidth_efficiency = *v;
        if (const YAML::Node n = root["hop_latency_delta"]; n && f_.expect_map(n, "profile.hop_latency_delta")) {
            f_.check_keys(n, "profile.hop_latency_delta", {"nvlink", "pci", "net"});
            for (std::size_t k = 0; k < 3; ++k)
                if (auto v = signed_time(n, "profile.hop_latency_delta", kClasses[k], kMaxHopDelta))
                    c.hop_latency_delta[k] = *v;
        }
        if (auto t = f_.time(root, "profile", "launch_per_gpu", false)) {
            if (*t > kMaxLaunchPerGpu)
                f_.error(root["launch_per_gpu"], "profile.launch_per_gpu", fmt::format("at most {}", kMaxLaunchPerGpu),
                         describe_node(root["launch_per_gpu"]));
            else c.launch_per_gpu = *t;
        }
        base_latencies(root["base_latency"], c);
        size_corrections(root["size_corrections"], c);
        f_.throw_if_errors();
        return c;
    }

private:
    void fitted_from(const YAML::Node& n, Calibration& c) {
        if (!n) return;
        if (n.IsScalar()) {
            c.fitted_from = n.Scalar();
            return;
        }
        if (!f_.expect_sequence(n, "profile.fitted_from")) return;
        for (std::size_t i = 0; i < n.size(); ++i) {
            if (!n[i].IsScalar()) {
                f_.error(n[i], fmt::format("profile.fitted_from[{}]", i), "a file name", describe_node(n[i]));
                continue;
            }
            c.fitted_from += (c.fitted_from.empty() ? "" : ", ") + n[i].Scalar();
        }
    }

    std::optional<double> factor(const YAML::Node& map, const std::string& path, std::string_view key, double lo,
                                 double hi, bool required) {
        const std::string k(key);
        auto text = f_.string(map, path, k.c_str(), required);
        if (!text) return std::nullopt;
        std::size_t used = 0;
        double v = 0;
        try {
            v = std::stod(*text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != text->size() || !(v > lo && v <= hi)) {
            f_.error(map[k], path + "." + k, fmt::format("a number above {} and at most {}", lo, hi), "'" + *text + "'");
            return std::nullopt;
        }
        return v;
    }

    // Like YamlFields::time, but a per-step latency change may be negative.
    std::optional<Time> signed_time(const YAML::Node& map, const std::string& path, std::string_view key, Time limit) {
        const std::string k(key);
        auto text = f_.string(map, path, k.c_str(), false);
        if (!text) return std::nullopt;
        try {
            const Time t = parse_time(*text);
            if (t <= limit && Time{} - t <= limit) return t;
            f_.error(map[k], path + "." + k, fmt::format("a time between -{} and {}", limit, limit), "'" + *text + "'");
        } catch (const std::invalid_argument& e) {
            f_.error(map[k], path + "." + k, e.what(), "'" + *text + "'");
        }
        return std::nullopt;
    }

    void base_latencies(const YAML::Node& n, Calibration& c) {
        if (!n || !f_.expect_sequence(n, "profile.base_latency")) return;
        for (std::size_t i = 0; i < n.size(); ++i) {
            const std::string path = fmt::format("profile.base_latency[{}]", i);
            const YAML::Node e = n[i];
            if (!f_.expect_map(e, path)) continue;
            f_.check_keys(e, path, {"op", "family", "proto", "latency"});
            auto op_text = f_.string(e, path, "op", false);
            auto family_text = f_.string(e, path, "family", true);
            auto proto_text = f_.string(e, path, "proto", true);
            auto latency = f_.time(e, path, "latency", true);
            std::optional<CollOp> op;
            std::optional<NcclFamily> family;
            std::optional<ProtoKind> proto;
            if (op_text && !(op = coll_op_from(*op_text)))
                f_.error(e["op"], path + ".op", std::string(coll_op_choices()), "'" + *op_text + "'");
            if (family_text && !(family = nccl_family_from(*family_text)))
                f_.error(e["family"], path + ".family", family_choices(), "'" + *family_text + "'");
            if (proto_text && !(proto = proto_kind_from(*proto_text)))
                f_.error(e["proto"], path + ".proto", std::string(proto_choices()), "'" + *proto_text + "'");
            if (latency && *latency > kMaxBaseLatency)
                f_.error(e["latency"], path + ".latency", fmt::format("at most {}", kMaxBaseLatency),
                         describe_node(e["latency"]));
            if ((op_text && !op) || !family || !proto || !latency || *latency > kMaxBaseLatency) continue;
            if (!nccl_protocol(*family, *proto)) {
                f_.error(e, path, "a protocol that NCCL runs with this family",
                         fmt::format("{} with {}", to_string(*proto), to_string(*family)));
                continue;
            }
            const bool fresh = op ? c.op_base_latency.emplace(std::tuple{*op, *family, *proto}, *latency).second
                                  : c.base_latency.emplace(std::pair{*family, *proto}, *latency).second;
            if (!fresh)
                f_.error(e, path, op ? "each collective, family and protocol once" : "each family and protocol once",
                         fmt::format("{}{} {} again", op ? std::string(to_string(*op)) + " " : "",
                                     to_string(*family), to_string(*proto)));
        }
    }

    void size_corrections(const YAML::Node& n, Calibration& c) {
        if (!n || !f_.expect_sequence(n, "profile.size_corrections")) return;
        for (std::size_t i = 0; i < n.size(); ++i) {
            const std::string path = fmt::format("profile.size_corrections[{}]", i);
            const YAML::Node e = n[i];
            if (!f_.expect_map(e, path)) continue;
            f_.check_keys(e, path, {"from", "to", "factor"});
            auto from = size(e, path, "from"), to = size(e, path, "to");
            auto k = factor(e, path, "factor", kMinSizeFactor, kMaxSizeFactor, true);
            if (!from || !to || !k) continue;
            if (*from >= *to) {
                f_.error(e["to"], path + ".to", fmt::format("a size above from ({} B)", from->count()),
                         describe_node(e["to"]));
                continue;
            }
            if (!c.size_corrections.empty() && *from < c.size_corrections.back().to) {
                f_.error(e["from"], path + ".from",
                         fmt::format("ranges in rising order, not overlapping (the previous one ends at {} B)",
                                     c.size_corrections.back().to.count()),
                         describe_node(e["from"]));
                continue;
            }
            c.size_corrections.push_back(SizeCorrection{*from, *to, *k});
        }
    }

    std::optional<Bytes> size(const YAML::Node& map, const std::string& path, const char* key) {
        auto text = f_.string(map, path, key, true);
        if (!text) return std::nullopt;
        try {
            return parse_size(*text);
        } catch (const std::invalid_argument& e) {
            f_.error(map[key], path + "." + key, e.what(), "'" + *text + "'");
            return std::nullopt;
        }
    }

    YamlFields f_;
};

// Sizes as nccl-tests writes them: the largest binary unit that divides exactly.
std::string format_size(Bytes b) {
    const int64_t n = b.count();
    for (const auto& [unit, scale] : std::array<std::pair<const char*, int64_t>, 4>{
             {{"T", int64_t{1} << 40}, {"G", int64_t{1} << 30}, {"M", int64_t{1} << 20}, {"K", int64_t{1} << 10}}})
        if (n != 0 && n % scale == 0) return fmt::format("{}{}", n / scale, unit);
    return std::to_string(n);
}

// A YAML double-quoted scalar.
std::string yaml_quoted(const std::string& s) {
    std::string out = "\"";
    for (char ch : s) {
        if (ch == '"' || ch == '\\') out += '\\';
        out += ch;
    }
    return out + "\"";
}

}  // namespace

std::string_view to_string(NcclFamily f) { return name_in(kFamilies, f); }

std::optional<NcclFamily> nccl_family_from(std::string_view s) { return value_in(kFamilies, s); }

Calibration parse_calibration(const std::string& yaml_text, const std::string& name) {
    return ProfileParser(name).parse(load_yaml_text(yaml_text, name));
}

Calibration load_calibration(const std::string& path) { return ProfileParser(path).parse(load_yaml_file(path)); }

std::string render_calibration(const Calibration& c, const std::string& comment) {
    std::string out;
    for (std::size_t start = 0; start < comment.size();) {
        const auto end = comment.find('\n', start);
        out += "# " + comment.substr(start, end == std::string::npos ? std::string::npos : end - start) + "\n";
        start = end == std::string::npos ? comment.size() : end + 1;
    }
    out += fmt::format("collsim_calibration: {}\n", kFormatVersion);
    out += fmt::format("nccl_version: {}\n", yaml_quoted(c.nccl_version));
    if (!c.fitted_from.empty()) out += fmt::format("fitted_from: {}\n", yaml_quoted(c.fitted_from));
    out += "bandwidth_efficiency: {";
    for (std::size_t k = 0; k < 3; ++k)
        out += fmt::format("{}{}: {:.6g}", k ? ", " : "", kClasses[k], c.bandwidth_efficiency[k]);
    out += "}\n";
    out += fmt::format("p2p_bandwidth_efficiency: {:.6g}\n", c.p2p_bandwidth_efficiency);
    out += fmt::format("nvls_bandwidth_efficiency: {:.6g}\n", c.nvls_bandwidth_efficiency);
    out += "hop_latency_delta: {";
    for (std::size_t k = 0; k < 3; ++k)
        out += fmt::format("{}{}: {}", k ? ", " : "", kClasses[k], format_time(c.hop_latency_delta[k]));
    out += "}\n";
    out += fmt::format("launch_per_gpu: {}\n", format_time(c.launch_per_gpu));
    if (!c.base_latency.empty() || !c.op_base_latency.empty()) {
        out += "base_latency:\n";
        for (const auto& [key, t] : c.base_latency)
            out += fmt::format("  - {{family: {}, proto: {}, latency: {}}}\n", to_string(key.first),
                               to_string(key.second), format_time(t));
        for (const auto& [key, t] : c.op_base_latency)
            out += fmt::format("  - {{op: {}, family: {}, proto: {}, latency: {}}}\n", to_string(std::get<0>(key)),
                               to_string(std::get<1>(key)), to_string(std::get<2>(key)), format_time(t));
    }
    if (!c.size_corrections.empty()) {
        out += "size_corrections:\n";
        for (const auto& s : c.size_corrections)
            out += fmt::format("  - {{from: {}, to: {}, factor: {:.6g}}}\n", format_size(s.from), format_size(s.to),
                               s.factor);
    }
    return out;
}

}  // namespace collsim
