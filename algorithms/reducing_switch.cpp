#include "algorithms/reducing_switch.hpp"

#include <algorithm>

namespace collsim {

namespace {
std::vector<DeviceId> reducing_neighbours(const Topology& topo, DeviceId gpu) {
    const auto& g = topo.graph();
    std::vector<DeviceId> out;
    for (auto [e, end] = boost::out_edges(gpu, g); e != end; ++e) {
        const auto d = static_cast<DeviceId>(boost::target(*e, g));
        if (topo.device(d).kind == DeviceKind::nvswitch && topo.device(d).in_network_reduction) out.push_back(d);
    }
    std::sort(out.begin(), out.end());
    return out;
}
}  // namespace

std::optional<DeviceId> reducing_nvswitch(const Topology& topo, const std::vector<DeviceId>& gpus) {
    if (gpus.empty()) return std::nullopt;
    std::vector<DeviceId> common = reducing_neighbours(topo, gpus.front());
    for (std::size_t i = 1; i < gpus.size() && !common.empty(); ++i) {
        const std::vector<DeviceId> mine = reducing_neighbours(topo, gpus[i]);
        std::vector<DeviceId> both;
        std::set_intersection(common.begin(), common.end(), mine.begin(), mine.end(), std::back_inserter(both));
        common = std::move(both);
    }
    if (common.empty()) return std::nullopt;
    return common.front();
}

}  // namespace collsim
