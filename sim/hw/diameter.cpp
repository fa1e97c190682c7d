#include <algorithm>

#include "sim/hw/analysis.hpp"

namespace collsim {

namespace {
// Breadth-first hop counts from one device, never expanding a GPU other than
// the start (GPUs do not forward).
class Searcher {
public:
    explicit Searcher(const Topology& topo)
        : topo_(topo), dist_(topo.devices().size(), -1), parent_(topo.devices().size(), 0) {}

    // Returns the eccentricity over GPUs (largest distance to a reachable GPU).
    int run(DeviceId start) {
        std::fill(dist_.begin(), dist_.end(), -1);
        const auto& g = topo_.graph();
        std::vector<DeviceId> queue{start};
        dist_[start] = 0;
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const DeviceId v = queue[head];
            if (v != start && topo_.device(v).kind == DeviceKind::gpu) continue;
            for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
                const auto w = static_cast<DeviceId>(boost::target(*e, g));
                if (dist_[w] >= 0) continue;
                dist_[w] = dist_[v] + 1;
                parent_[w] = v;
                queue.push_back(w);
            }
        }
        int ecc = 0;
        for (DeviceId gpu : topo_.gpus()) ecc = std::max(ecc, dist_[gpu]);
        return ecc;
    }
    int dist(DeviceId v) const { return dist_[v]; }
    DeviceId parent(DeviceId v) const { return parent_[v]; }
    DeviceId farthest_gpu() const {
        DeviceId best = topo_.gpus().front();
        for (DeviceId gpu : topo_.gpus())
            if (dist_[gpu] > dist_[best]) best = gpu;
        return best;
    }

private:
    const Topology& topo_;
    std::vector<int> dist_;
    std::vector<DeviceId> parent_;
};
}  // namespace

int gpu_diameter_hops(const Topology& topo) {
    const auto& gpus = topo.gpus();
    if (gpus.size() < 2) return 0;
    Searcher s(topo);
    // Double sweep: a long shortest path b..c gives a lower bound, and its
    // middle device is a good centre.
    s.run(gpus.front());
    const DeviceId b = s.farthest_gpu();
    int lower = s.run(b);
    const DeviceId c = s.farthest_gpu();
    DeviceId middle = c;
    while (s.dist(middle) > lower / 2) middle = s.parent(middle);

    // Upper bounds per GPU: through a non-GPU centre m, d(g, h) <= d(g, m) +
    // ecc(m) for every GPU h (the concatenated path transits only m).
    std::vector<int> upper(gpus.size(), INT32_MAX);
    if (topo.device(middle).kind != DeviceKind::gpu) {
        const int ecc = s.run(middle);
        for (std::size_t i = 0; i < gpus.size(); ++i)
            if (s.dist(gpus[i]) >= 0) upper[i] = s.dist(gpus[i]) + ecc;
    }
    // Settle the GPUs whose bound still exceeds the best diameter found.
    for (;;) {
        const auto top = std::max_element(upper.begin(), upper.end()) - upper.begin();
        if (upper[static_cast<std::size_t>(top)] <= lower) return lower;
        const int ecc = s.run(gpus[static_cast<std::size_t>(top)]);
        lower = std::max(lower, ecc);
        upper[static_cast<std::size_t>(top)] = ecc;
    }
}

}  // namespace collsim
