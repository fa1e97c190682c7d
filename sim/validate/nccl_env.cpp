#include "sim/validate/nccl_env.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/tuner/tuner.hpp"
#include "sim/core/name_table.hpp"
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

bool value_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ',' || c == '^' || c == '.' || c == ';' ||
           c == ':';
}

// NCCL_ALGO's names (src/include/nccl_common.h, matched without case) and the NCCL family each runs.
constexpr NameTable<NcclFamily, 7> kNcclAlgos{{
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
    const auto family = value_in(kNcclAlgos, lower_case(nccl_name));
    if (!family)
        throw InputError(s.at, s.name, "NCCL algorithms: Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree, PAT",
                         fmt::format("'{}'", nccl_name));
    if (auto a = algorithm_for_nccl_name(nccl_name)) return *a;
    throw InputError(s.at, s.name, "an algorithm collsim models (Tree, Ring, CollNetDirect, NVLS, NVLSTree)",
                     fmt::format("'{}', which it does not", nccl_name));
}

// NCCL's collective functions as NCCL_ALGO and NCCL_PROTO prefix their lists
// (ncclFuncStr, matched without case).
constexpr NameTable<CollOp, 5> kNcclFunctions{{
    {"broadcast", CollOp::broadcast},
    {"reduce", CollOp::reduce},
    {"allgather", CollOp::allgather},
    {"reducescatter", CollOp::reducescatter},
    {"allreduce", CollOp::allreduce},
}};

// Where the value's character at `offset` stands.
SourceLocation in_value(const NcclSetting& s, int offset) {
    return SourceLocation{s.at.file, s.at.line, s.at.column + static_cast<int>(s.name.size()) + 1 + offset};
}

// The list a setting gives `op`, empty where it leaves `op` at NCCL's default.
// Since NCCL 2.24 a value is "list[;function:list]...": the first list may go
// without a prefix and holds for every function, a prefixed one replaces it
// for its function, the last for a function counting (parseList in NCCL's
// src/graph/tuning.cc). AllToAll and SendRecv have no prefix of their own.
std::string_view list_for(const NcclSetting& s, CollOp op) {
    std::string_view out;
    bool first = true;
    for (const Word& entry : split_fields(s.value, ';')) {
        if (entry.text.empty()) continue;
        const std::size_t colon = entry.text.find(':');
        if (colon == std::string_view::npos) {
            if (!first)
                throw InputError(in_value(s, entry.column - 1), s.name,
                                 "a 'function:' prefix on every list after the first (NCCL rejects the setting)",
                                 fmt::format("'{}'", entry.text));
            out = entry.text;
        } else {
            const auto function = value_in(kNcclFunctions, lower_case(entry.text.substr(0, colon)));
            if (!function)
                throw InputError(in_value(s, entry.column - 1), s.name,
                                 "a function prefix: Broadcast, Reduce, AllGather, ReduceScatter or AllReduce",
                                 fmt::format("'{}'", entry.text.substr(0, colon)));
            if (*function == op) out = trim(entry.text.substr(colon + 1));
        }
        first = false;
    }
    return out;
}

// The settings collsim follows, each stated once or always alike: a log that
// gives two values for one cannot say which its rows ran with. Others
// (NCCL_DEBUG, NCCL_IB_HCA, ...) may differ without changing a prediction.
void check_agree(const std::vector<NcclSetting>& settings) {
    constexpr std::array<std::string_view, 4> kFollowed{"NCCL_ALGO", "NCCL_PROTO", "NCCL_NVLS_ENABLE",
                                                        "NCCL_COLLNET_ENABLE"};
    for (std::size_t i = 0; i < settings.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (settings[j].name == settings[i].name && settings[j].value != settings[i].value &&
                std::find(kFollowed.begin(), kFollowed.end(), settings[i].name) != kFollowed.end())
                throw InputError(settings[i].at, settings[i].name,
                                 fmt::format("the value it had at line {}, column {} ('{}')", settings[j].at.line,
                                             settings[j].at.column, settings[j].value),
                                 fmt::format("'{}'", settings[i].value));
}

}  // namespace

std::optional<std::string> algorithm_for_nccl_name(std::string_view nccl_name) {
    const auto family = value_in(kNcclAlgos, lower_case(nccl_name));
    return family ? algorithm_for(*family) : std::nullopt;
}

std::vector<NcclSetting> nccl_settings_in(std::string_view text, const std::string& file, int line, int first_column) {
    std::vector<NcclSetting> out;
    for (std::size_t at = text.find("NCCL_"); at != std::string_view::npos; at = text.find("NCCL_", at + 1)) {
        if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) continue;
        const std::size_t eq = name_end(text, at);
        if (eq >= text.size() || text[eq] != '=') continue;
        // A ';' separates a value's lists ("ring;allreduce:tree"), or ends it
        // where another setting follows ("NCCL_ALGO=ring;NCCL_PROTO=LL").
        std::size_t end = eq + 1;
        while (end < text.size() && value_char(text[end]) &&
               !(text[end] == ';' && starts_setting(text.substr(end + 1))))
            ++end;
        std::string_view value = text.substr(eq + 1, end - eq - 1);
        while (!value.empty() && value.back() == ';') value.remove_suffix(1);
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

NcclSelection nccl_selection(const std::vector<NcclSetting>& settings, CollOp op) {
    check_agree(settings);
    NcclSelection out;
    for (const NcclSetting& s : settings) {
        const std::string_view list = s.name == "NCCL_ALGO" || s.name == "NCCL_PROTO" ? list_for(s, op) : "";
        const bool exclude = !list.empty() && list.front() == '^';
        if (s.name == "NCCL_ALGO" && !list.empty()) {
            std::vector<std::string> named;
            for (const Word& n : split_fields(list.substr(exclude ? 1 : 0), ','))
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
        } else if (s.name == "NCCL_PROTO" && !list.empty()) {
            std::vector<ProtoKind> named;
            for (const Word& n : split_fields(list.substr(exclude ? 1 : 0), ',')) {
                const auto kind = proto_kind_from(lower_case(n.text));
                if (!kind)
                    throw InputError(s.at, s.name, "NCCL protocols: LL, LL128, Simple", fmt::format("'{}'", n.text));
                add_once(named, *kind);
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
