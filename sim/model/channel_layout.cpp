#include "sim/model/channel_layout.hpp"

#include <algorithm>
#include <map>

#include "sim/hw/routes.hpp"

namespace collsim {

namespace {
// Positions in a node's rank order of the GPUs of each NIC, NICs in order of
// first use; empty when a GPU there has no NIC.
std::vector<std::vector<std::size_t>> positions_by_nic(const std::vector<DeviceId>& local,
                                                       const std::vector<std::vector<DeviceId>>& home) {
    std::vector<DeviceId> nics;
    std::vector<std::vector<std::size_t>> at;
    for (std::size_t i = 0; i < local.size(); ++i) {
        if (home[local[i]].empty()) return {};
        const auto it = std::find(nics.begin(), nics.end(), home[local[i]].front());
        const auto k = static_cast<std::size_t>(it - nics.begin());
        if (it == nics.end()) {
            nics.push_back(home[local[i]].front());
            at.emplace_back();
        }
        at[k].push_back(i);
    }
    return at;
}

// Where channel c starts in a node's rank order: at a GPU of the c-th NIC, so
// that consecutive channels enter the node through different NICs even where
// two GPUs share one; channels beyond the NIC count start at the NIC's next
// GPU. Without NICs, at position c.
std::size_t channel_start(const std::vector<std::vector<std::size_t>>& at, std::size_t size, int c) {
    const auto uc = static_cast<std::size_t>(c);
    if (at.empty()) return uc % size;
    const auto& mine = at[uc % at.size()];
    return mine[(uc / at.size()) % mine.size()];
}
}  // namespace

std::vector<std::vector<DeviceId>> rail_aligned_channels(const Routes& routes, const std::vector<DeviceId>& ranks,
                                                         int channels, bool alternate) {
    const std::vector<uint32_t>& node = routes.node_of();
    std::vector<std::vector<DeviceId>> groups;  // nodes in order of first appearance
    std::map<uint32_t, std::size_t> group_of;
    for (DeviceId g : ranks) {
        auto [it, fresh] = group_of.emplace(node[g], groups.size());
        if (fresh) groups.emplace_back();
        groups[it->second].push_back(g);
    }
    if (groups.size() < 2) return {};
    std::vector<std::vector<std::vector<std::size_t>>> nic_positions;
    for (const auto& local : groups) nic_positions.push_back(positions_by_nic(local, routes.home_nics()));
    std::vector<std::vector<DeviceId>> out;
    for (int c = 0; c < channels; ++c) {
        std::vector<DeviceId> order;
        for (std::size_t k = 0; k < groups.size(); ++k) {
            std::vector<DeviceId> local = groups[k];
            const std::size_t start = channel_start(nic_positions[k], local.size(), c);
            std::rotate(local.begin(), local.begin() + static_cast<std::ptrdiff_t>(start), local.end());
            if (alternate && k % 2 == 1) std::reverse(local.begin(), local.end());
            order.insert(order.end(), local.begin(), local.end());
        }
        out.push_back(std::move(order));
    }
    return out;
}

}  // namespace collsim
