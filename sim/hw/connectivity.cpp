#include "sim/hw/connectivity.hpp"

#include <algorithm>
#include <numeric>

namespace collsim {

namespace {
// Union-find with path halving and union by size.
class Components {
public:
    explicit Components(std::size_t n) : parent_(n), size_(n, 1) { std::iota(parent_.begin(), parent_.end(), 0u); }
    uint32_t find(uint32_t v) {
        while (parent_[v] != v) v = parent_[v] = parent_[parent_[v]];
        return v;
    }
    void join(uint32_t a, uint32_t b) {
        a = find(a), b = find(b);
        if (a == b) return;
        if (size_[a] < size_[b]) std::swap(a, b);
        parent_[b] = a;
        size_[a] += size_[b];
    }

private:
    std::vector<uint32_t> parent_, size_;
};
}  // namespace

std::vector<std::pair<DeviceId, DeviceId>> disconnected_gpu_pairs(const Topology& topo, std::size_t limit) {
    const auto& gpus = topo.gpus();
    const std::size_t n = topo.devices().size();
    auto is_gpu = [&](DeviceId d) { return topo.device(d).kind == DeviceKind::gpu; };
    Components comp(n);
    for (const Link& l : topo.links())
        if (!is_gpu(l.a) && !is_gpu(l.b)) comp.join(l.a, l.b);

    // Per GPU: the components it touches and the GPUs it is linked to directly
    // (component ids are roots, i.e. device ids of non-GPUs, so they never
    // collide with GPU ids).
    std::vector<std::vector<DeviceId>> touches(gpus.size());
    std::vector<uint32_t> rank_of(n, UINT32_MAX);
    for (uint32_t r = 0; r < gpus.size(); ++r) rank_of[gpus[r]] = r;
    std::vector<uint32_t> gpus_on(n, 0);  // by component root
    for (const Link& l : topo.links()) {
        for (auto [g, other] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
            if (!is_gpu(g)) continue;
            touches[rank_of[g]].push_back(is_gpu(other) ? other : comp.find(other));
        }
    }
    for (auto& t : touches) {
        std::sort(t.begin(), t.end());
        t.erase(std::unique(t.begin(), t.end()), t.end());
        for (DeviceId c : t)
            if (!is_gpu(c)) ++gpus_on[c];
    }
    // The common case (any fabric, NVSwitch or PCIe tree): one component
    // touches every GPU, so every pair meets there.
    for (DeviceId c = 0; c < n; ++c)
        if (gpus_on[c] == gpus.size()) return {};

    // Otherwise compare GPUs directly (direct GPU meshes are small).
    std::vector<std::vector<uint32_t>> members(n);  // component root -> GPU ranks
    for (uint32_t r = 0; r < gpus.size(); ++r)
        for (DeviceId c : touches[r])
            if (!is_gpu(c)) members[c].push_back(r);
    std::vector<std::pair<DeviceId, DeviceId>> out;
    std::vector<uint8_t> seen(gpus.size());
    for (uint32_t r = 1; r < gpus.size() && out.size() < limit; ++r) {
        std::fill(seen.begin(), seen.end(), 0);
        for (DeviceId c : touches[r]) {
            if (is_gpu(c)) {
                seen[rank_of[c]] = 1;
            } else {
                for (uint32_t m : members[c]) seen[m] = 1;
            }
        }
        for (uint32_t q = 0; q < r; ++q) {
            if (seen[q]) continue;
            out.emplace_back(gpus[q], gpus[r]);
            break;
        }
    }
    return out;
}

}  // namespace collsim
