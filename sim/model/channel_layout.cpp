#include "sim/model/channel_layout.hpp"

#include <algorithm>
#include <map>

#include "algorithms/tuner/comm_shape.hpp"

namespace collsim {

std::vector<std::vector<DeviceId>> rail_aligned_channels(const Topology& topo, const std::vector<DeviceId>& ranks,
                                                         int channels, bool alternate) {
    const std::vector<uint32_t> node = node_of_devices(topo);
    std::vector<std::vector<DeviceId>> groups;  // nodes in order of first appearance
    std::map<uint32_t, std::size_t> group_of;
    for (DeviceId g : ranks) {
        auto [it, fresh] = group_of.emplace(node[g], groups.size());
        if (fresh) groups.emplace_back();
        groups[it->second].push_back(g);
    }
    if (groups.size() < 2) return {};
    std::vector<std::vector<DeviceId>> out;
    for (int c = 0; c < channels; ++c) {
        std::vector<DeviceId> order;
        for (std::size_t k = 0; k < groups.size(); ++k) {
            std::vector<DeviceId> local = groups[k];
            std::rotate(local.begin(), local.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(c) % local.size()),
                        local.end());
            if (alternate && k % 2 == 1) std::reverse(local.begin(), local.end());
            order.insert(order.end(), local.begin(), local.end());
        }
        out.push_back(std::move(order));
    }
    return out;
}

}  // namespace collsim
