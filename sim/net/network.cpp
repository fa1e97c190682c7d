#include "sim/net/network.hpp"

#include <algorithm>
#include <stdexcept>

namespace collsim {

namespace {
constexpr __int128 kScale = 1'000'000'000'000;  // picoseconds per second
}

Network::Network(Simulator& sim, std::vector<Bandwidth> capacities)
    : sim_(sim), extra_latency_(capacities.size()), on_resource_(capacities.size()), carried_(capacities.size(), 0),
      resource_mark_(capacities.size(), 0) {
    capacity_.reserve(capacities.size());
    for (auto c : capacities) capacity_.push_back(c.bps());
}

void Network::set_capacity(ResourceId r, Bandwidth bw) {
    if (r >= capacity_.size()) throw std::out_of_range("capacity of an unknown resource");
    capacity_[r] = bw.bps();
    rerate_around({r});
}

Time Network::extra_latency(const std::vector<ResourceId>& path) const {
    Time t{};
    for (ResourceId r : path) t += extra_latency_[r];
    return t;
}

std::vector<std::vector<ResourceId>> Network::stalled_flows() const {
    std::vector<std::vector<ResourceId>> out;
    for (const Flow& f : flows_)
        if (f.active && f.rate == 0) out.push_back(f.resources);
    return out;
}

Bytes Network::carried(ResourceId r) const { return Bytes(static_cast<int64_t>(carried_[r] / kScale)); }

Bytes Network::carried_now(ResourceId r) const {
    __int128 total = carried_[r];
    for (FlowId id : on_resource_[r]) {
        const Flow& f = flows_[id];
        const __int128 moved = static_cast<__int128>(f.rate) * (sim_.now() - f.last_update).ps();
        total += std::min(moved, f.remaining);
    }
    return Bytes(static_cast<int64_t>(total / kScale));
}

FlowId Network::start_flow(std::vector<ResourceId> resources, Bytes bytes, Time latency, Event on_done,
                           Event on_sent) {
    for (ResourceId r : resources)
        if (r >= capacity_.size()) throw std::out_of_range("flow over an unknown resource");
    std::sort(resources.begin(), resources.end());
    resources.erase(std::unique(resources.begin(), resources.end()), resources.end());
    if (bytes.count() == 0 || resources.empty()) {
        // Nothing to share: only the latency is paid.
        if (on_sent) sim_.schedule_in(Time{}, std::move(on_sent));
        sim_.schedule_in(latency, std::move(on_done));
        return UINT32_MAX;
    }
    FlowId id;
    if (!free_ids_.empty()) {
        id = free_ids_.back();
        free_ids_.pop_back();
    } else {
        id = static_cast<FlowId>(flows_.size());
        flows_.emplace_back();
        flow_mark_.push_back(0);
    }
    Flow& f = flows_[id];
    f.resources = std::move(resources);
    f.remaining = static_cast<__int128>(bytes.count()) * kScale;
    f.rate = 0;
    f.last_update = sim_.now();
    f.latency = latency;
    f.on_done = std::move(on_done);
    f.on_sent = std::move(on_sent);
    f.finish = EventHandle{};
    f.active = true;
    ++active_;
    for (ResourceId r : f.resources) on_resource_[r].push_back(id);
    rerate_around(f.resources);
    return id;
}

void Network::advance(Flow& f) {
    Time dt = sim_.now() - f.last_update;
    if (dt.ps() > 0 && f.rate > 0) {
        __int128 moved = static_cast<__int128>(f.rate) * dt.ps();
        moved = std::min(moved, f.remaining);
        f.remaining -= moved;
        for (ResourceId r : f.resources) carried_[r] += moved;
    }
    f.last_update = sim_.now();
}

void Network::rerate_around(const std::vector<ResourceId>& touched) {
    // Collect the connected component of flows reachable through shared resources.
    std::vector<FlowId> component;
    std::vector<ResourceId> stack(touched.begin(), touched.end()), seen_resources;
    for (ResourceId r : stack) resource_mark_[r] = 1;
    seen_resources = stack;
    while (!stack.empty()) {
        ResourceId r = stack.back();
        stack.pop_back();
        for (FlowId id : on_resource_[r]) {
            if (flow_mark_[id]) continue;
            flow_mark_[id] = 1;
            component.push_back(id);
            for (ResourceId q : flows_[id].resources) {
                if (resource_mark_[q]) continue;
                resource_mark_[q] = 1;
                seen_resources.push_back(q);
                stack.push_back(q);
            }
        }
    }
    for (ResourceId r : seen_resources) resource_mark_[r] = 0;
    for (FlowId id : component) flow_mark_[id] = 0;
    // Determinism: the filling order must not depend on discovery order.
    std::sort(component.begin(), component.end());
    fill(component);
}

// Progressive filling: repeatedly take the resource with the smallest fair
// share among its unfrozen flows, give that share to those flows, freeze them.
void Network::fill(const std::vector<FlowId>& component) {
    struct Res {
        ResourceId id;
        int64_t cap;
        int64_t unfrozen;
    };
    std::vector<Res> res;
    std::vector<std::size_t> index_of;  // position in res, looked up by binary search
    for (FlowId id : component)
        for (ResourceId r : flows_[id].resources) res.push_back(Res{r, capacity_[r], 0});
    std::sort(res.begin(), res.end(), [](const Res& a, const Res& b) { return a.id < b.id; });
    res.erase(std::unique(res.begin(), res.end(), [](const Res& a, const Res& b) { return a.id == b.id; }),
              res.end());
    auto find = [&](ResourceId r) -> Res& {
        return *std::lower_bound(res.begin(), res.end(), r, [](const Res& a, ResourceId v) { return a.id < v; });
    };
    for (FlowId id : component) {
        advance(flows_[id]);
        for (ResourceId r : flows_[id].resources) ++find(r).unfrozen;
    }
    std::vector<int64_t> new_rate(component.size(), -1);
    std::size_t left = component.size();
    while (left > 0) {
        Res* best = nullptr;
        for (Res& r : res) {
            if (r.unfrozen == 0) continue;
            if (!best || static_cast<__int128>(r.cap) * best->unfrozen < static_cast<__int128>(best->cap) * r.unfrozen)
                best = &r;
        }
        const int64_t share = std::max<int64_t>(best->cap, 0) / best->unfrozen;
        for (std::size_t i = 0; i < component.size(); ++i) {
            if (new_rate[i] >= 0) continue;
            const auto& rs = flows_[component[i]].resources;
            if (!std::binary_search(rs.begin(), rs.end(), best->id)) continue;
            new_rate[i] = share;
            --left;
            for (ResourceId q : rs) {
                Res& x = find(q);
                x.cap -= share;
                --x.unfrozen;
            }
        }
    }
    for (std::size_t i = 0; i < component.size(); ++i) {
        Flow& f = flows_[component[i]];
        ++rerated_;
        if (f.rate == new_rate[i] && f.finish.slot != UINT32_MAX) continue;
        f.rate = new_rate[i];
        schedule_finish(component[i]);
    }
}

void Network::schedule_finish(FlowId id) {
    Flow& f = flows_[id];
    sim_.cancel(f.finish);
    f.finish = EventHandle{};
    if (f.rate <= 0) return;  // stalled: no finish until something changes
    __int128 ps = (f.remaining + f.rate - 1) / f.rate;
    f.finish = sim_.schedule_in(Time::from_ps(static_cast<int64_t>(ps)), [this, id] { finish(id); });
}

void Network::finish(FlowId id) {
    Flow& f = flows_[id];
    advance(f);
    f.remaining = 0;
    f.active = false;
    f.finish = EventHandle{};
    --active_;
    for (ResourceId r : f.resources) {
        auto& v = on_resource_[r];
        v.erase(std::find(v.begin(), v.end(), id));
    }
    if (f.on_sent) sim_.schedule_in(Time{}, std::move(f.on_sent));
    sim_.schedule_in(f.latency, std::move(f.on_done));
    std::vector<ResourceId> touched = std::move(f.resources);
    f.resources.clear();
    free_ids_.push_back(id);
    rerate_around(touched);
}

}  // namespace collsim
