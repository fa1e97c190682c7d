#include "algorithms/sharp_tree.hpp"

#include <algorithm>
#include <map>

namespace collsim {

namespace {
// The reducing switches a route crosses, in order.
std::vector<DeviceId> reducing_on(const Topology& topo, const Path& p) {
    std::vector<DeviceId> out;
    for (ChannelId c : p.channels) {
        const DeviceId d = topo.channel_target(c);
        const Device& dev = topo.device(d);
        if (dev.kind == DeviceKind::network_switch && dev.in_network_reduction) out.push_back(d);
    }
    return out;
}
}  // namespace

std::optional<SharpTree> sharp_tree(const Topology& topo, Routes& routes, const std::vector<DeviceId>& rail,
                                    std::string* why) {
    auto fail = [&](std::string reason) -> std::optional<SharpTree> {
        if (why) *why = std::move(reason);
        return std::nullopt;
    };
    if (rail.size() < 2) return fail("a rail of one GPU has nothing to reduce across servers");
    const DeviceId first = rail[0];
    std::optional<DeviceId> root;
    for (DeviceId candidate : reducing_on(topo, routes.path(rail[1], first))) {
        bool common = true;
        for (std::size_t i = 2; i < rail.size() && common; ++i) {
            const auto on = reducing_on(topo, routes.path(rail[i], first));
            common = std::find(on.begin(), on.end(), candidate) != on.end();
        }
        if (common) {
            root = candidate;
            break;
        }
    }
    if (!root) return fail("no network switch with in_network_reduction: true lies on every route between the "
                           "servers' GPUs");
    SharpTree t;
    t.root = *root;
    t.switches.push_back(*root);
    std::map<DeviceId, DeviceId> parent;  // switch -> parent switch
    for (DeviceId gpu : rail) {
        std::vector<DeviceId> chain = reducing_on(topo, routes.path(gpu, *root));
        chain.erase(std::find(chain.begin(), chain.end(), *root), chain.end());
        chain.push_back(*root);
        t.parent_of_gpu.push_back(chain.front());
        for (std::size_t i = 0; i + 1 < chain.size(); ++i) {
            if (parent.count(chain[i])) break;  // joined the tree already
            parent.emplace(chain[i], chain[i + 1]);
            t.switches.push_back(chain[i]);
            t.up.emplace_back(chain[i], chain[i + 1]);
        }
    }
    return t;
}

}  // namespace collsim
