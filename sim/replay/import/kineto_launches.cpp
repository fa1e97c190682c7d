#include "sim/replay/import/kineto_launches.hpp"

#include <algorithm>

namespace collsim {

namespace {
bool encloses(const KinetoSpan& outer, const KinetoSpan& inner) {
    return outer.ts <= inner.ts && inner.ts + inner.dur <= outer.ts + outer.dur;
}
}  // namespace

bool is_comm_op(const std::string& name) {
    return name == "record_param_comms" || name.starts_with("c10d::") || name.starts_with("nccl:");
}

KinetoLaunches::KinetoLaunches(std::vector<KinetoSpan> comm_ops, std::vector<KinetoSpan> runtime) {
    for (KinetoSpan& r : runtime)
        if (r.correlation) runtime_.emplace(*r.correlation, std::move(r));
    for (KinetoSpan& op : comm_ops) threads_[op.thread].ops.push_back(std::move(op));
    for (auto& [name, t] : threads_) {
        std::stable_sort(t.ops.begin(), t.ops.end(), [](const KinetoSpan& a, const KinetoSpan& b) {
            return a.ts < b.ts || (a.ts == b.ts && a.dur > b.dur);
        });
        // Spans on one thread nest: the open ones form a stack.
        std::vector<int> open;
        t.parent.assign(t.ops.size(), -1);
        for (int i = 0; i < static_cast<int>(t.ops.size()); ++i) {
            while (!open.empty() && !encloses(t.ops[static_cast<std::size_t>(open.back())], t.ops[static_cast<std::size_t>(i)]))
                open.pop_back();
            if (!open.empty()) t.parent[static_cast<std::size_t>(i)] = open.back();
            open.push_back(i);
            if (t.ops[static_cast<std::size_t>(i)].external)
                by_external_[*t.ops[static_cast<std::size_t>(i)].external] = {&t, i};
        }
    }
}

std::vector<const KinetoSpan*> KinetoLaunches::launchers(int64_t correlation) const {
    std::vector<const KinetoSpan*> out;
    const auto r = runtime_.find(correlation);
    if (r == runtime_.end()) return out;
    const KinetoSpan& call = r->second;
    const Thread* thread = nullptr;
    int at = -1;
    if (call.external)
        if (const auto e = by_external_.find(*call.external); e != by_external_.end()) {
            const auto& [t, i] = e->second;
            if (t->ops[static_cast<std::size_t>(i)].thread == call.thread && encloses(t->ops[static_cast<std::size_t>(i)], call))
                thread = t, at = i;
        }
    if (!thread) {
        const auto t = threads_.find(call.thread);
        if (t == threads_.end()) return out;
        thread = &t->second;
        // The last op to start before the call, then out through its parents.
        const auto next = std::upper_bound(thread->ops.begin(), thread->ops.end(), call.ts,
                                           [](int64_t ts, const KinetoSpan& op) { return ts < op.ts; });
        at = static_cast<int>(next - thread->ops.begin()) - 1;
        while (at >= 0 && !encloses(thread->ops[static_cast<std::size_t>(at)], call))
            at = thread->parent[static_cast<std::size_t>(at)];
    }
    for (; at >= 0; at = thread->parent[static_cast<std::size_t>(at)]) out.push_back(&thread->ops[static_cast<std::size_t>(at)]);
    return out;
}

}  // namespace collsim
