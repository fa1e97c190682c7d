#include "sim/model/channel_layout.hpp"

#include <algorithm>
#include <map>

#include "sim/hw/nodes.hpp"

namespace collsim {

namespace {
// Where channel c starts in a node's rank order: at a GPU of the c-th NIC (in
// order of first use), so that consecutive channels enter the node through
// different NICs even where two GPUs share one; channels beyond the NIC count
// start at the NIC's next GPU.
std::size_t channel_start(const std::vector<DeviceId>& local, const std::vector<std::vector<DeviceId>>& home, int c) {
    std::vector<DeviceId> nics;
    std::vector<std::vector<std::size_t>> at;  // positions of each NIC's GPUs
    for (std::size_t i = 0; i < local.size(); ++i) {
        if (home[local[i]].empty()) return static_cast<std::size_t>(c) % local.size();
        const DeviceId nic = home[local[i]].front();
        auto it = std::find(nics.begin(), nics.end(), nic);
        if (it == nics.end()) {
            nics.push_back(nic);
            at.emplace_back();
            it = nics.end() - 1;
        }
        at[static_cast<std::size_t>(it - nics.begin())].push_back(i);
    }
    const std::size_t q = nics.size(), uc = static_cast<std::size_t>(c);
    const auto& mine = at[uc % q];
    return mine[(uc / q) % mine.size()];
}
}  // namespace

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
    const std::vector<std::vector<DeviceId>> home = home_nics(topo);
    std::vector<std::vector<DeviceId>> out;
    for (int c = 0; c < channels; ++c) {
        std::vector<DeviceId> order;
        for (std::size_t k = 0; k < groups.size(); ++k) {
            std::vector<DeviceId> local = groups[k];
            std::rotate(local.begin(), local.begin() + static_cast<std::ptrdiff_t>(channel_start(local, home, c)),
                        local.end());
            if (alternate && k % 2 == 1) std::reverse(local.begin(), local.end());
            order.insert(order.end(), local.begin(), local.end());
        }
        out.push_back(std::move(order));
    }
    return out;
}

}  // namespace collsim
