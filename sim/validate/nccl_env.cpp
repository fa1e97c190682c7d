#include "sim/validate/nccl_env.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/tuner/tuner.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/validate/text_fields.hpp"

namespace collsim {

namespace {

// Where a setting's NAME (capitals, digits and '_') that starts at `from` ends.
std::size_t name_end(std::string_view s, std::size_t from) {
    while (from < s.size() && (std::isupper(static_cast<unsigned char>(s[from])) ||
                               std::isdigit(static_cast<unsigned char>(s[from])) || s[from] == '_'))
        ++from;
    return from;
}

// "NAME=" at the start of a text.
bool starts_setting(std::string_view s) {
    const std::size_t eq = name_end(s, 0);
    return eq > 0 && eq < s.size() && s[eq] == '=';
}

bool value_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ',' || c == '^' || c == '.'; }

// NCCL_ALGO's names (src/include/nccl_common.h, matched without case) and the NCCL family each runs.
constexpr std::array<std::pair<std::string_view, NcclFamily>, 7> kNcclAlgos{{
    {"tree", NcclFamily::tree},
    {"ring", NcclFamily::ring},
    {"collnetdirect", NcclFamily::collnet_direct},
    {"collnetchain", NcclFamily::collnet_chain},
    {"nvls", NcclFamily::nvls},
    {"nvlstree", NcclFamily::nvls_tree},
    {"pat", NcclFamily::pat},
}};

// collsim's algorithm for one of NCCL_ALGO's names.
std::string algorithm_named(std::string_view nccl_name, const NcclSetting& s) {
    for (const auto& [name, family] : kNcclAlgos)
        if (lower_case(nccl_name) == name) {
            if (auto a = algorithm_for(family)) return *a;
            throw InputError(s.at, s.name, "an algorithm collsim models (Tree, Ring, CollNetDirect, NVLS, NVLSTree)",
                             fmt::format("'{}', which it does not", nccl_name));
        }
    throw InputError(s.at, s.name, "NCCL algorithms: Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree, PAT",
                     fmt::format("'{}'", nccl_name));
}

void add_once(std::vector<std::string>& v, const std::string& name) {
    if (std::find(v.begin(), v.end(), name) == v.end()) v.push_back(name);
}

}  // namespace

std::vector<NcclSetting> nccl_settings_in(std::string_view text, const std::string& file, int line, int first_column) {
    std::vector<NcclSetting> out;
    for (std::size_t at = text.find("NCCL_"); at != std::string_view::npos; at = text.find("NCCL_", at + 1)) {
        if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) continue;
        const std::size_t eq = name_end(text, at);
        if (eq >= text.size() || text[eq] != '=') continue;
        std::size_t end = eq + 1;
        while (end < text.size() && value_char(text[end])) ++end;
        std::string_view value = text.substr(eq + 1, end - eq - 1);
        if (!value.empty() && value.back() == ',') {
            // "NCCL_NVLS_ENABLE=0, NCCL_ALGO=ring": a comma between settings;
            // "NCCL_ALGO=Tree, Ring, NVLS in turn": prose about several runs.
            std::size_t next = end;
            while (next < text.size() && text[next] == ' ') ++next;
            if (next < text.size() && !starts_setting(text.substr(next))) continue;
            value.remove_suffix(1);
        }
        if (value.empty()) continue;
        out.push_back(NcclSetting{std::string(text.substr(at, eq - at)), std::string(value),
                                  SourceLocation{file, line, first_column + static_cast<int>(at)}});
    }
    return out;
}

NcclSelection nccl_selection(const std::vector<NcclSetting>& settings) {
    NcclSelection out;
    for (const NcclSetting& s : settings) {
        if (s.name == "NCCL_ALGO") {
            const bool exclude = s.value.front() == '^';
            std::vector<std::string> named;
            for (const Word& n : split_fields(std::string_view(s.value).substr(exclude ? 1 : 0), ','))
                add_once(named, algorithm_named(n.text, s));
            if (exclude) {
                for (const auto& n : named) add_once(out.disabled, n);
            } else if (named.size() == 1) {
                out.algo = named.front();
            } else {
                // Several allowed: the tuner chooses among them, as NCCL's does.
                for (const auto& [name, family] : kNcclAlgos)
                    if (auto a = algorithm_for(family); a && std::find(named.begin(), named.end(), *a) == named.end())
                        add_once(out.disabled, *a);
            }
        } else if (s.name == "NCCL_PROTO") {
            const bool exclude = s.value.front() == '^';
            std::vector<ProtoKind> named;
            for (const Word& n : split_fields(std::string_view(s.value).substr(exclude ? 1 : 0), ',')) {
                const auto kind = proto_kind_from(lower_case(n.text));
                if (!kind)
                    throw InputError(s.at, s.name, "NCCL protocols: LL, LL128, Simple", fmt::format("'{}'", n.text));
                if (std::find(named.begin(), named.end(), *kind) == named.end()) named.push_back(*kind);
            }
            if (exclude) {
                out.protos.disabled = named;
            } else if (named.size() == 1) {
                out.proto = std::string(to_string(named.front()));
            } else {
                out.protos.enabled = named;
                for (ProtoKind k : {ProtoKind::ll, ProtoKind::ll128, ProtoKind::simple})
                    if (std::find(named.begin(), named.end(), k) == named.end()) out.protos.disabled.push_back(k);
            }
        } else if (s.name == "NCCL_NVLS_ENABLE" && s.value == "0") {
            add_once(out.disabled, "nvls");
            add_once(out.disabled, "nvls_tree");
        } else if (s.name == "NCCL_COLLNET_ENABLE" && s.value == "1") {
            if (auto a = algorithm_for(NcclFamily::collnet_direct)) add_once(out.enabled, *a);
        }
    }
    return out;
}

}  // namespace collsim
