#include "algorithms/cost_model.hpp"

#include <algorithm>
#include <utility>

#include "sim/exec/step_costs.hpp"

namespace collsim {

namespace {
// A key's home slot in a power-of-two table: the high bits of a
// multiplicative hash (Knuth's golden-ratio constant).
std::size_t slot_of(uint64_t key, std::size_t size) {
    return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ULL) >> 20) & (size - 1);
}
}  // namespace

Estimate slower(const Estimate& a, const Estimate& b) { return b.total() > a.total() ? b : a; }

const Path& CostModel::path(DeviceId a, DeviceId b, int channel) {
    // Device ids fit 26 bits (topologies stop well below 2^26 devices), channels 12.
    const uint64_t key = (static_cast<uint64_t>(a) << 38) | (static_cast<uint64_t>(b) << 12) |
                         static_cast<uint64_t>(channel & 0xfff);
    if (path_keys_.size() < 2 * (paths_.size() + 1)) {
        std::vector<uint64_t> keys(std::max<std::size_t>(1024, path_keys_.size() * 2), 0);
        std::vector<uint32_t> slots(keys.size(), 0);
        for (std::size_t i = 0; i < path_keys_.size(); ++i) {
            if (path_keys_[i] == 0) continue;
            std::size_t j = slot_of(path_keys_[i] - 1, keys.size());
            while (keys[j] != 0) j = (j + 1) & (keys.size() - 1);
            keys[j] = path_keys_[i];
            slots[j] = path_slots_[i];
        }
        path_keys_ = std::move(keys);
        path_slots_ = std::move(slots);
    }
    std::size_t j = slot_of(key, path_keys_.size());
    while (path_keys_[j] != 0) {
        if (path_keys_[j] == key + 1) return paths_[path_slots_[j]];
        j = (j + 1) & (path_keys_.size() - 1);
    }
    path_keys_[j] = key + 1;
    path_slots_[j] = static_cast<uint32_t>(paths_.size());
    return paths_.emplace_back(
        routing_.route(routes_, a, b, static_cast<uint64_t>(channel), [](ChannelId) { return uint64_t{0}; }));
}

bool CostModel::via_switch(DeviceId a, DeviceId b) const {
    return reduces_in_nvswitch(comm_.topo->device(a)) || reduces_in_nvswitch(comm_.topo->device(b));
}

int64_t CostModel::ceiling(DeviceId from, int sharing) const {
    if (proto_.rank_ceiling.bps() <= 0 || comm_.topo->device(from).kind != DeviceKind::gpu) return INT64_MAX;
    return proto_.wire_ceiling().bps() / sharing;
}

Bandwidth CostModel::capacity(ChannelId c) const {
    const Link& l = comm_.topo->link(Topology::link_of(c));
    return scaled_bandwidth(l.bandwidth, efficiency_[static_cast<std::size_t>(link_class(l.kind))]);
}

Estimate CostModel::send(DeviceId a, DeviceId b, Bytes payload, int sharing, int channel, bool hop_latency) {
    const Path& p = path(a, b, channel);
    Estimate e{step_latency(p, proto_, hop_latency), Time{}};
    if (!p.channels.empty() && payload.count() > 0) {
        int64_t bottleneck = INT64_MAX;
        for (ChannelId c : p.channels) bottleneck = std::min(bottleneck, capacity(c).bps());
        const int64_t rate = std::min(bottleneck / sharing, ceiling(a, sharing));
        e.bandwidth = transfer_time(wire_bytes(payload, proto_, via_switch(a, b)), Bandwidth::bytes_per_s(rate));
    }
    return e;
}

Estimate CostModel::send_channels(int a, int b, Bytes payload, int channels, bool hop_latency) {
    std::vector<Transfer> all;
    for (int c = 0; c < channels; ++c) all.push_back(Transfer{gpu(a, c), gpu(b, c), payload, c});
    return concurrent(all, hop_latency);
}

Estimate CostModel::concurrent(const std::vector<Transfer>& transfers, bool hop_latency) {
    Estimate worst;
    const std::vector<Estimate> each = concurrent_each(transfers, hop_latency);
    for (std::size_t i = 0; i < each.size(); ++i) worst = i == 0 ? each[i] : slower(worst, each[i]);
    return worst;
}

std::vector<Estimate> CostModel::concurrent_each(const std::vector<Transfer>& transfers, bool hop_latency) {
    return concurrent_each(transfers, paths_of(transfers), transfers.size(), hop_latency);
}

std::vector<const Path*> CostModel::paths_of(std::span<const Transfer> transfers) {
    std::vector<const Path*> paths;
    paths.reserve(transfers.size());
    for (const Transfer& t : transfers) paths.push_back(&path(t.from, t.to, t.channel));
    return paths;
}

std::vector<Estimate> CostModel::concurrent_each(std::span<const Transfer> transfers, std::span<const Path* const> paths,
                                                 std::size_t estimated, bool hop_latency) {
    if (load_.size() < comm_.topo->channel_count()) {
        load_.assign(comm_.topo->channel_count(), 0);
        capacity_bps_.assign(comm_.topo->channel_count(), -1);
    }
    estimated = std::min(estimated, transfers.size());
    std::vector<ChannelId> loaded;
    // A GPU's ceiling is split over its channels, each shared by the
    // channel's sends (as the executor holds them). Counted by sorting the
    // senders with the transfers' indices, then one pass over the runs: closed
    // forms at scale pass millions of transfers, and neither a hash map's
    // node per sender nor a binary search per transfer is cheap there.
    auto sender = [](const Transfer& t) { return (static_cast<uint64_t>(t.from) << 16) | static_cast<uint64_t>(t.channel & 0xffff); };
    std::vector<std::pair<uint64_t, uint32_t>> senders;
    senders.reserve(transfers.size());
    std::vector<int> channels;
    for (std::size_t i = 0; i < transfers.size(); ++i) {
        const Transfer& t = transfers[i];
        if (t.bytes.count() == 0) continue;
        for (ChannelId l : paths[i]->channels)
            if (load_[l]++ == 0) loaded.push_back(l);
        senders.emplace_back(sender(t), static_cast<uint32_t>(i));
        channels.push_back(t.channel);
    }
    std::sort(senders.begin(), senders.end());
    std::sort(channels.begin(), channels.end());
    const auto channel_count = static_cast<int>(std::unique(channels.begin(), channels.end()) - channels.begin());
    std::vector<int> sends_from(estimated, 0);
    for (std::size_t lo = 0, hi = 0; lo < senders.size(); lo = hi) {
        while (hi < senders.size() && senders[hi].first == senders[lo].first) ++hi;
        for (std::size_t j = lo; j < hi; ++j)
            if (senders[j].second < estimated) sends_from[senders[j].second] = static_cast<int>(hi - lo);
    }
    auto capacity_bps = [this](ChannelId l) {
        int64_t& c = capacity_bps_[l];
        if (c < 0) c = capacity(l).bps();
        return c;
    };
    std::vector<Estimate> out;
    out.reserve(estimated);
    for (std::size_t i = 0; i < estimated; ++i) {
        const Transfer& t = transfers[i];
        const Path& p = *paths[i];
        Estimate e{step_latency(p, proto_, hop_latency), Time{}};
        if (!p.channels.empty() && t.bytes.count() > 0) {
            int64_t rate = ceiling(t.from, channel_count * sends_from[i]);
            for (ChannelId l : p.channels)
                rate = std::min(rate, capacity_bps(l) / load_[l]);
            e.bandwidth = transfer_time(wire_bytes(t.bytes, proto_, via_switch(t.from, t.to)), Bandwidth::bytes_per_s(rate));
        }
        out.push_back(e);
    }
    for (ChannelId l : loaded) load_[l] = 0;
    return out;
}

Estimate CostModel::reduce(DeviceId gpu, Bytes payload, int sharing) const {
    const Bandwidth m = comm_.topo->device(gpu).memory_bandwidth;
    return Estimate{Time{}, transfer_time(exposed_reduction(payload, proto_) * kReduceMemoryTraffic,
                                          Bandwidth::bytes_per_s(m.bps() / sharing))};
}

Estimate CostModel::local_copy(DeviceId gpu, Bytes payload, int sharing) const {
    const Bandwidth m = comm_.topo->device(gpu).memory_bandwidth;
    return Estimate{Time{}, transfer_time(payload * kCopyMemoryTraffic, Bandwidth::bytes_per_s(m.bps() / sharing))};
}

}  // namespace collsim
