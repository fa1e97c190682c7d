#include "sim/faults/compute_faults.hpp"

#include <algorithm>
#include <cmath>

#include "sim/faults/straggler_draw.hpp"

namespace collsim {

namespace {
bool in_window(const Fault& f, Time t) { return t >= f.at && (!f.duration || t < f.at + *f.duration); }

Time scaled(Time t, double factor) {
    return factor == 1.0 ? t : Time::from_ps(std::llround(static_cast<double>(t.ps()) * factor));
}
}  // namespace

ComputeFaults::ComputeFaults(const FaultPlan& plan, const std::vector<DeviceId>& rank_gpus, uint64_t seed)
    : per_rank_(rank_gpus.size()), seed_(seed) {
    for (std::size_t k = 0; k < plan.faults.size(); ++k) {
        const Fault& f = plan.faults[k];
        if (f.on_links()) continue;
        for (std::size_t r = 0; r < rank_gpus.size(); ++r)
            if (std::find(f.gpus.begin(), f.gpus.end(), rank_gpus[r]) != f.gpus.end()) {
                per_rank_[r].push_back(Hit{&f, k + 1});
                empty_ = false;
            }
    }
    for (auto& hits : per_rank_)
        std::stable_sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.fault->at < b.fault->at; });
}

double ComputeFaults::straggler_factor(int rank, int step, uint32_t op, Time start) const {
    double factor = 1.0;
    for (const Hit& h : per_rank_[static_cast<std::size_t>(rank)]) {
        const Fault& f = *h.fault;
        if (f.kind != FaultKind::straggler || !in_window(f, start)) continue;
        const auto r = static_cast<uint64_t>(rank), s = static_cast<uint64_t>(step);
        factor *= f.per == "collective" ? straggler_draw(f, seed_, h.key, {r, s, uint64_t{op} + 1})
                                        : straggler_draw(f, seed_, h.key, {r, s});
    }
    return factor;
}

std::optional<Time> ComputeFaults::end(int rank, int step, uint32_t op, Time start, Time nominal) const {
    double factor = straggler_factor(rank, step, op, start);
    for (const Hit& h : per_rank_[static_cast<std::size_t>(rank)])
        if (h.fault->kind == FaultKind::slow && in_window(*h.fault, start)) factor *= h.fault->factor;
    Time begin = start, length = scaled(nominal, factor);
    for (const Hit& h : per_rank_[static_cast<std::size_t>(rank)]) {
        const Fault& f = *h.fault;
        if (f.kind != FaultKind::pause) continue;
        if (in_window(f, begin)) {
            if (!f.duration) return std::nullopt;
            begin = f.at + *f.duration;
        } else if (begin < f.at && begin + length > f.at) {
            if (!f.duration) return std::nullopt;
            length += *f.duration;
        }
    }
    return begin + length;
}

}  // namespace collsim
