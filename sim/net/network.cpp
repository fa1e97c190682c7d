#include "sim/net/network.hpp"

#include <algorithm>
#include <stdexcept>

namespace collsim {

namespace {
constexpr __int128 kScale = 1'000'000'000'000;  // picoseconds per second
}

Network::Network(Simulator& sim, std::vector<Bandwidth> capacities)
    : sim_(sim), extra_latency_(capacities.size()), on_resource_(capacities.size()), members_on_(capacities.size(), 0),
      lead_pipeline_(capacities.size(), 0), lead_count_(capacities.size(), 0), carried_(capacities.size(), 0),
      resource_slot_(capacities.size(), kUnmarked) {
    capacity_.reserve(capacities.size());
    for (auto c : capacities) capacity_.push_back(c.bps());
}

void Network::set_capacity(ResourceId r, Bandwidth bw) {
    if (r >= capacity_.size()) throw std::out_of_range("capacity of an unknown resource");
    capacity_[r] = bw.bps();
    changed({r});
}

ResourceId Network::add_resource(Bandwidth bw) {
    if (!free_resources_.empty()) {
        const ResourceId r = free_resources_.back();
        free_resources_.pop_back();
        capacity_[r] = bw.bps();
        return r;
    }
    capacity_.push_back(bw.bps());
    extra_latency_.emplace_back();
    on_resource_.emplace_back();
    members_on_.push_back(0);
    lead_pipeline_.push_back(0);
    lead_count_.push_back(0);
    carried_.push_back(0);
    resource_slot_.push_back(kUnmarked);
    return static_cast<ResourceId>(capacity_.size() - 1);
}

void Network::remove_resource(ResourceId r) {
    if (r >= capacity_.size() || !on_resource_[r].empty()) throw std::logic_error("removing a resource in use");
    carried_[r] = 0;
    extra_latency_[r] = Time{};
    free_resources_.push_back(r);
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

std::vector<ResourceId> Network::dead_on_stalled(std::size_t limit) const {
    std::vector<ResourceId> dead;
    for (const Flow& f : flows_)
        if (f.active && f.rate == 0)
            for (ResourceId r : f.resources)
                if (r < limit && capacity_[r] == 0) dead.push_back(r);
    std::sort(dead.begin(), dead.end());
    dead.erase(std::unique(dead.begin(), dead.end()), dead.end());
    return dead;
}

Bytes Network::carried(ResourceId r) const { return Bytes(static_cast<int64_t>(carried_[r] / kScale)); }

Bytes Network::carried_now(ResourceId r) const {
    __int128 total = carried_[r];
    for (FlowId id : on_resource_[r]) {
        const Flow& f = flows_[id];
        const __int128 moved = static_cast<__int128>(f.rate) * (sim_.now() - f.last_update).ps();
        total += std::min(moved, f.remaining) * f.weight;
    }
    return Bytes(static_cast<int64_t>(total / kScale));
}

FlowId Network::start_flow(std::vector<ResourceId> resources, Bytes bytes, Time latency, Event on_done,
                           Event on_sent, uint32_t pipeline, uint32_t weight) {
    for (ResourceId r : resources)
        if (r >= capacity_.size()) throw std::out_of_range("flow over an unknown resource");
    if (weight == 0) throw std::invalid_argument("a flow of no member flows");
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
        flow_slot_.push_back(kUnmarked);
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
    f.pipeline = pipeline;
    f.weight = weight;
    ++active_;
    for (ResourceId r : f.resources) join(r, id);
    changed(f.resources);
    return id;
}

void Network::advance(Flow& f) {
    Time dt = sim_.now() - f.last_update;
    if (dt.ps() > 0 && f.rate > 0) {
        __int128 moved = static_cast<__int128>(f.rate) * dt.ps();
        moved = std::min(moved, f.remaining);
        f.remaining -= moved;
        for (ResourceId r : f.resources) carried_[r] += moved * f.weight;
    }
    f.last_update = sim_.now();
}

void Network::changed(const std::vector<ResourceId>& touched) {
    dirty_.insert(dirty_.end(), touched.begin(), touched.end());
    if (rerate_pending_) return;
    rerate_pending_ = true;
    sim_.schedule_in(Time{}, [this] { settle(); });
}

void Network::settle() {
    rerate_pending_ = false;
    if (dirty_.empty()) return;
    const std::vector<ResourceId> touched = std::move(dirty_);
    dirty_.clear();
    rerate_around(touched);
}

void Network::rerate_around(const std::vector<ResourceId>& touched) {
    // Collect the connected component of flows reachable through shared resources.
    std::vector<FlowId> component;
    std::vector<ResourceId> stack, seen;
    for (ResourceId r : touched)
        if (resource_slot_[r] == kUnmarked) {
            resource_slot_[r] = static_cast<uint32_t>(seen.size());
            seen.push_back(r);
            stack.push_back(r);
        }
    while (!stack.empty()) {
        ResourceId r = stack.back();
        stack.pop_back();
        for (FlowId id : on_resource_[r]) {
            if (flow_slot_[id] != kUnmarked) continue;
            flow_slot_[id] = 0;
            component.push_back(id);
            for (ResourceId q : flows_[id].resources) {
                if (resource_slot_[q] != kUnmarked) continue;
                resource_slot_[q] = static_cast<uint32_t>(seen.size());
                seen.push_back(q);
                stack.push_back(q);
            }
        }
    }
    // Determinism: the filling order must not depend on discovery order.
    std::sort(component.begin(), component.end());
    for (std::size_t i = 0; i < component.size(); ++i) flow_slot_[component[i]] = static_cast<uint32_t>(i);
    fill(component, seen);
    for (ResourceId r : seen) resource_slot_[r] = kUnmarked;
    for (FlowId id : component) flow_slot_[id] = kUnmarked;
}

// Progressive filling: repeatedly take the resource with the smallest fair
// share among its unfrozen flows, give that share to those flows, freeze them.
// The resources wait in a heap ordered by share (ties: lowest id), so a fill
// costs O(F k + P log R) rather than a scan of every resource and flow per
// level: in-network reduction ties hundreds of flows into one component, and
// a replay's fluid streams thousands.
// Each resource has one entry, updated lazily: freezing a flow of weight w at
// the smallest share s only raises another resource's share, since
// (cap - s w) / (u - w) >= cap / u exactly when s <= cap / u. So an entry's share is a lower bound of
// its resource's, and the entry at the top, if current, is the true minimum
// (ties by id as before); a stale one is pushed back with its current share.
// The order of freezing, hence every rate, is that of re-pushing each entry on
// every change, at a fraction of the pushes (P, not F k).
void Network::fill(const std::vector<FlowId>& component, const std::vector<ResourceId>& resources) {
    struct Res {
        int64_t cap;
        int64_t unfrozen;
    };
    std::vector<Res> res(resources.size());
    for (std::size_t k = 0; k < resources.size(); ++k) res[k] = Res{capacity_[resources[k]], 0};
    auto at = [&](ResourceId r) -> Res& { return res[resource_slot_[r]]; };
    for (FlowId id : component)
        for (ResourceId r : flows_[id].resources) at(r).unfrozen += flows_[id].weight;
    // A snapshot of a resource's state; it counts only while it still matches
    // (states never repeat: each change lowers the unfrozen count).
    struct Entry {
        int64_t cap, unfrozen;
        ResourceId id;
    };
    auto after = [](const Entry& a, const Entry& b) {
        const __int128 l = static_cast<__int128>(a.cap) * b.unfrozen, r = static_cast<__int128>(b.cap) * a.unfrozen;
        return l != r ? l > r : a.id > b.id;
    };
    std::vector<Entry> heap;
    for (std::size_t k = 0; k < resources.size(); ++k)
        if (res[k].unfrozen > 0) heap.push_back(Entry{res[k].cap, res[k].unfrozen, resources[k]});
    std::make_heap(heap.begin(), heap.end(), after);
    std::vector<int64_t> new_rate(component.size(), -1);
    std::size_t left = component.size();
    while (left > 0) {
        std::pop_heap(heap.begin(), heap.end(), after);
        const Entry e = heap.back();
        heap.pop_back();
        const Res& best = at(e.id);
        if (best.unfrozen == 0) continue;
        if (best.cap != e.cap || best.unfrozen != e.unfrozen) {
            heap.push_back(Entry{best.cap, best.unfrozen, e.id});
            std::push_heap(heap.begin(), heap.end(), after);
            continue;
        }
        const int64_t share = std::max<int64_t>(best.cap, 0) / best.unfrozen;
        for (FlowId id : on_resource_[e.id]) {
            int64_t& rate = new_rate[flow_slot_[id]];
            if (rate >= 0) continue;
            rate = share;
            --left;
            const uint32_t w = flows_[id].weight;
            for (ResourceId q : flows_[id].resources) {
                Res& x = at(q);
                x.cap -= share * w;
                x.unfrozen -= w;
            }
        }
    }
    for (std::size_t i = 0; i < component.size(); ++i) {
        Flow& f = flows_[component[i]];
        ++rerated_;
        if (f.rate == new_rate[i] && f.finish.slot != UINT32_MAX) continue;
        // Progress is brought up to date only where the rate changes: bytes
        // move linearly at one rate, so advancing over two spans or one sum
        // to the same integers, and carried_now() counts the span since.
        advance(f);
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
    for (ResourceId r : f.resources) leave(r, id);
    if (f.on_sent) sim_.schedule_in(Time{}, std::move(f.on_sent));
    sim_.schedule_in(f.latency, std::move(f.on_done));
    std::vector<ResourceId> touched = std::move(f.resources);
    f.resources.clear();
    free_ids_.push_back(id);
    if (f.pipeline == 0 || shared_beyond(touched, f.pipeline)) changed(touched);
}

void Network::join(ResourceId r, FlowId id) {
    auto& v = on_resource_[r];
    const uint32_t p = flows_[id].pipeline;
    if (v.empty()) lead_pipeline_[r] = p, lead_count_[r] = 0;
    if (p == lead_pipeline_[r]) ++lead_count_[r];
    v.push_back(id);
    members_on_[r] += flows_[id].weight;
}

void Network::leave(ResourceId r, FlowId id) {
    auto& v = on_resource_[r];
    v.erase(std::find(v.begin(), v.end(), id));
    members_on_[r] -= flows_[id].weight;
    if (flows_[id].pipeline != lead_pipeline_[r] || --lead_count_[r] > 0 || v.empty()) return;
    // The lead pipeline has left: another one leads, counted once.
    lead_pipeline_[r] = flows_[v.front()].pipeline;
    lead_count_[r] = static_cast<uint32_t>(std::count_if(
        v.begin(), v.end(), [&](FlowId other) { return flows_[other].pipeline == lead_pipeline_[r]; }));
}

// Whether a flow outside `pipeline` (plain flows are in pipeline 0) is on any of these.
bool Network::shared_beyond(const std::vector<ResourceId>& resources, uint32_t pipeline) const {
    for (ResourceId r : resources)
        if (!on_resource_[r].empty() && (lead_pipeline_[r] != pipeline || lead_count_[r] < on_resource_[r].size()))
            return true;
    return false;
}

}  // namespace collsim
