#include "sim/hw/servers.hpp"

#include <numeric>

namespace collsim {

std::vector<int> server_of_devices(const Topology& topo) {
    const std::size_t n = topo.devices().size();
    std::vector<std::size_t> parent(n);
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    auto root = [&](std::size_t v) {
        while (parent[v] != v) v = parent[v] = parent[parent[v]];
        return v;
    };
    for (const Link& l : topo.links()) {
        if (l.kind == LinkKind::network) continue;
        const std::size_t a = root(l.a), b = root(l.b);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
    std::vector<int> id_of_root(n, -1), out(n);
    int next = 0;
    for (std::size_t v = 0; v < n; ++v) {
        const std::size_t r = root(v);
        if (id_of_root[r] < 0) id_of_root[r] = next++;
        out[v] = id_of_root[r];
    }
    return out;
}

}  // namespace collsim
