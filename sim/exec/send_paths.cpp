#include "sim/exec/send_paths.hpp"

#include "sim/core/random.hpp"
#include "sim/exec/executor.hpp"

namespace collsim {

SendPaths::SendPaths(const Topology& topo, Routes& routes, RoutingPolicy routing)
    : topo_(topo), routes_(routes), routing_(routing) {}

std::size_t SendPaths::KeyHash::operator()(const Key& k) const {
    return static_cast<std::size_t>(mix64(mix64((static_cast<uint64_t>(k.from) << 32) | k.to) ^ k.flow));
}

SendPaths::Send SendPaths::send_of(const Entry& e) const {
    return Send{e.path, std::span<const ResourceId>(resources_).subspan(e.begin, e.count), e.channels};
}

SendPaths::Send SendPaths::find(DeviceId from, DeviceId to, uint64_t flow,
                                const std::function<uint64_t(ChannelId)>& load) {
    const bool cached = routing_.mode() != RoutingMode::adaptive;
    if (cached) {
        const auto it = entries_.find(Key{from, to, flow});
        if (it != entries_.end()) return send_of(it->second);
        if (entries_.size() >= kMaxEntries) entries_.clear(), resources_.clear();
    } else {
        resources_.clear();
    }
    Path p = routing_.route(routes_, from, to, flow, load);
    const std::vector<ResourceId> res = send_resources(topo_, p);
    Entry e;
    e.begin = static_cast<uint32_t>(resources_.size());
    e.count = static_cast<uint32_t>(res.size());
    e.channels = static_cast<uint32_t>(p.channels.size());
    resources_.insert(resources_.end(), res.begin(), res.end());
    p.channels = {};  // kept in resources_
    e.path = std::move(p);
    if (!cached) return send_of(e);
    return send_of(entries_.emplace(Key{from, to, flow}, std::move(e)).first->second);
}

}  // namespace collsim
