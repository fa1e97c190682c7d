// Network::fill keeps one lazily updated heap entry per resource; these hold
// its rates to plain progressive filling (every level scans every resource
// for the smallest fair share, ties to the lowest id, shares rounded down as
// the network rounds them), bit for bit, on random flows over random links.
#include <catch2/catch.hpp>

#include <random>

#include "sim/net/network.hpp"

using namespace collsim;

namespace {
std::vector<int64_t> max_min_reference(const std::vector<int64_t>& capacity,
                                       const std::vector<std::vector<ResourceId>>& flows) {
    std::vector<int64_t> cap = capacity, rate(flows.size(), -1);
    std::vector<int64_t> unfrozen(capacity.size(), 0);
    for (const auto& f : flows)
        for (ResourceId r : f) ++unfrozen[r];
    for (std::size_t left = flows.size(); left > 0;) {
        std::size_t best = capacity.size();
        for (std::size_t r = 0; r < capacity.size(); ++r) {
            if (unfrozen[r] == 0) continue;
            if (best == capacity.size() ||
                static_cast<__int128>(cap[r]) * unfrozen[best] < static_cast<__int128>(cap[best]) * unfrozen[r])
                best = r;
        }
        const int64_t share = cap[best] / unfrozen[best];
        for (std::size_t i = 0; i < flows.size(); ++i) {
            if (rate[i] >= 0 || std::find(flows[i].begin(), flows[i].end(), best) == flows[i].end()) continue;
            rate[i] = share;
            --left;
            for (ResourceId r : flows[i]) {
                cap[r] -= share;
                --unfrozen[r];
            }
        }
    }
    return rate;
}
}  // namespace

TEST_CASE("max-min rates are those of plain progressive filling, on random flows over shared links") {
    std::mt19937_64 rng(20261202);
    for (int trial = 0; trial < 300; ++trial) {
        const auto resources = static_cast<std::size_t>(1 + rng() % 12);
        std::vector<int64_t> capacity;
        std::vector<Bandwidth> caps;
        for (std::size_t r = 0; r < resources; ++r) {
            // Few distinct capacities, so that shares tie often.
            capacity.push_back(static_cast<int64_t>(1 + rng() % 4) * 1'000'000'007);
            caps.push_back(Bandwidth::bytes_per_s(capacity.back()));
        }
        std::vector<std::vector<ResourceId>> flows(1 + rng() % 40);
        for (auto& f : flows) {
            for (std::size_t r = 0; r < resources; ++r)
                if (rng() % 3 == 0) f.push_back(static_cast<ResourceId>(r));
            if (f.empty()) f.push_back(static_cast<ResourceId>(rng() % resources));
        }
        Simulator sim;
        Network net(sim, caps);
        std::vector<FlowId> ids;
        for (const auto& f : flows) ids.push_back(net.start_flow(f, Bytes(1'000'000'000), Time{}, [] {}));
        net.settle();
        const std::vector<int64_t> want = max_min_reference(capacity, flows);
        for (std::size_t i = 0; i < flows.size(); ++i) {
            INFO("trial " << trial << ", flow " << i);
            CHECK(net.rate(ids[i]).bps() == want[i]);
        }
    }
}
