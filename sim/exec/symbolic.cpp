#include "sim/exec/symbolic.hpp"

#include <deque>
#include <map>
#include <tuple>

#include <fmt/format.h>

namespace collsim {

namespace {
std::string describe(const Contributions& c) {
    std::string out = "{";
    for (std::size_t r = 0; r < c.size(); ++r)
        if (c[r] != 0) out += fmt::format("{}r{}{}", out.size() > 1 ? " " : "", r, c[r] > 1 ? fmt::format("x{}", c[r]) : "");
    return out + "}";
}

Contributions own(int ranks, int rank) {
    Contributions c(static_cast<std::size_t>(ranks), 0);
    c[static_cast<std::size_t>(rank)] = 1;
    return c;
}

// splitmix64: a tiny deterministic generator for the execution order.
uint64_t next_random(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
}  // namespace

SymbolicState run_symbolic(const Schedule& s, CollOp op, uint64_t order_seed) {
    const auto n = static_cast<std::size_t>(s.ranks);
    SymbolicState st;
    st.value.assign(n, std::vector<Contributions>(static_cast<std::size_t>(s.chunks)));
    for (std::size_t r = 0; r < n; ++r)
        for (auto& chunk : st.value[r])
            if (op == CollOp::allreduce) chunk = own(s.ranks, static_cast<int>(r));

    std::vector<uint32_t> waiting(s.steps.size());
    std::vector<std::vector<StepId>> dependents(s.steps.size());
    std::vector<StepId> ready;
    for (StepId i = 0; i < s.steps.size(); ++i) {
        waiting[i] = static_cast<uint32_t>(s.steps[i].deps.size());
        for (StepId d : s.steps[i].deps) dependents[d].push_back(i);
        if (waiting[i] == 0) ready.push_back(i);
    }
    // In flight: data sent to (dst, src, chunk), consumed in order.
    std::map<std::tuple<int, int, int>, std::deque<Contributions>> inbox;
    uint64_t rng = order_seed;
    std::size_t done = 0;
    while (!ready.empty()) {
        std::size_t pick = static_cast<std::size_t>(next_random(rng) % ready.size());
        StepId id = ready[pick];
        ready[pick] = ready.back();
        ready.pop_back();
        const Step& step = s.steps[id];
        auto& mine = st.value[static_cast<std::size_t>(step.rank)][static_cast<std::size_t>(step.chunk)];
        if (step.kind == StepKind::send) {
            if (mine.empty()) {
                st.problem = fmt::format("step {}: rank {} sends chunk {} it does not hold", id, step.rank, step.chunk);
                return st;
            }
            inbox[{step.peer, step.rank, step.chunk}].push_back(mine);
        } else {
            auto& q = inbox[{step.rank, step.peer, step.chunk}];
            if (q.empty()) {
                st.problem = fmt::format("step {}: rank {} consumes chunk {} from rank {} before it arrives", id,
                                         step.rank, step.chunk, step.peer);
                return st;
            }
            Contributions got = std::move(q.front());
            q.pop_front();
            if (step.kind == StepKind::copy || mine.empty()) {
                mine = std::move(got);
            } else {
                for (std::size_t r = 0; r < n; ++r) mine[r] += got[r];
            }
        }
        ++done;
        for (StepId d : dependents[id])
            if (--waiting[d] == 0) ready.push_back(d);
    }
    if (done != s.steps.size())
        st.problem = fmt::format("{} of {} steps never became ready (a dependency cycle)", s.steps.size() - done,
                                 s.steps.size());
    return st;
}

std::string check_symbolic(const Schedule& s, CollOp op, const SymbolicState& st) {
    if (!st.problem.empty()) return st.problem;
    if (op != CollOp::allreduce) return fmt::format("no symbolic check for {} yet", to_string(op));
    const Contributions all(static_cast<std::size_t>(s.ranks), 1);
    for (std::size_t r = 0; r < st.value.size(); ++r)
        for (std::size_t c = 0; c < st.value[r].size(); ++c)
            if (st.value[r][c] != all)
                return fmt::format("rank {} chunk {} holds {}, expected every rank once", r, c,
                                   describe(st.value[r][c]));
    return "";
}

}  // namespace collsim
