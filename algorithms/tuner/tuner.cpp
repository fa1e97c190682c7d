#include "algorithms/tuner/tuner.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/tuner/p2p_channels.hpp"

namespace collsim {

namespace {
constexpr std::array<std::pair<NcclFamily, std::string_view>, 7> kFamilyNames{{
    {NcclFamily::tree, "tree"},
    {NcclFamily::ring, "ring"},
    {NcclFamily::collnet_direct, "collnet"},
    {NcclFamily::collnet_chain, "collnet_chain"},
    {NcclFamily::nvls, "nvls"},
    {NcclFamily::nvls_tree, "nvls_tree"},
    {NcclFamily::pat, "pat"},
}};

std::string label(const NcclCost& c) {
    return fmt::format("{}/{}", algorithm_for(c.family).value_or("?"), to_string(c.proto));
}

// Operations NCCL runs as point-to-point sends (no tuner): every algorithm
// collsim has for them is a candidate, with the Simple protocol.
std::optional<TunedChoice> tune_p2p(const CommShape& shape, CollOp op, Bytes bytes, const std::string& algo,
                                    const std::string& proto) {
    for (const auto& a : algorithm_registry()) {
        if (!a.supports(op) || (algo != "auto" && a.name != algo)) continue;
        TunedChoice t;
        t.algo = std::string(a.name);
        t.proto = proto == "auto" ? ProtoKind::simple : *proto_kind_from(proto);
        t.ceiling_GBps = p2p_ceiling_GBps(shape, op, bytes);
        t.why = fmt::format("{} runs as point-to-point sends in NCCL; first implemented: {}", to_string(op), t.algo);
        return t;
    }
    return std::nullopt;
}
}  // namespace

bool ProtoSwitches::off(ProtoKind p) const { return std::find(disabled.begin(), disabled.end(), p) != disabled.end(); }
bool ProtoSwitches::on(ProtoKind p) const { return std::find(enabled.begin(), enabled.end(), p) != enabled.end(); }

std::optional<std::string> algorithm_for(NcclFamily f) {
    for (const auto& [family, name] : kFamilyNames)
        if (family == f && find_algorithm(name)) return std::string(name);
    return std::nullopt;
}

std::optional<TunedChoice> tune(const CommShape& shape, CollOp op, Bytes bytes, const std::string& algo,
                                const std::string& proto, const std::function<bool(const std::string&)>& usable,
                                const ProtoSwitches& protos) {
    if (is_point_to_point(op)) return tune_p2p(shape, op, bytes, algo, proto);
    const AlgorithmInfo* fixed = algo == "auto" ? nullptr : find_algorithm(algo);
    TunedChoice t;
    t.costs = nccl_costs(shape, op, bytes.count());
    const NcclCost* best = nullptr;
    const NcclCost* second = nullptr;
    for (const NcclCost& c : t.costs) {
        if (!c.eligible || !std::isfinite(c.time_us)) continue;
        if (proto != "auto" && to_string(c.proto) != proto) continue;
        if (c.off_by_default && proto == "auto" && !protos.on(c.proto)) continue;
        if (protos.off(c.proto)) continue;
        if (fixed ? fixed->family != c.family : !algorithm_for(c.family)) continue;
        if (!fixed && usable && !usable(*algorithm_for(c.family))) continue;
        if (!fixed) {
            const AlgorithmInfo* a = find_algorithm(*algorithm_for(c.family));
            if (!a->supports(op)) continue;
        }
        if (!best || c.time_us < best->time_us) {
            second = best;
            best = &c;
        } else if (!second || c.time_us < second->time_us) {
            second = &c;
        }
    }
    if (!best) return std::nullopt;
    t.algo = fixed ? std::string(fixed->name) : *algorithm_for(best->family);
    t.proto = best->proto;
    t.ceiling_GBps = best->ceiling_GBps;
    t.channels = nccl_launch_channels(nccl_channels(shape), best->proto, best->family, shape.ranks, bytes.count());
    t.why = fmt::format("NCCL {} cost model: {} {:.2f} us", kNcclModelVersion, label(*best), best->time_us);
    if (second) t.why += fmt::format(", next {} {:.2f} us", label(*second), second->time_us);
    return t;
}

}  // namespace collsim
