#include "sim/exec/symbolic.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "sim/exec/interpret.hpp"

namespace collsim {

namespace {

std::string describe(const Contributions& c, int input_chunks) {
    std::string out = "{";
    for (const auto& [origin, times] : c)
        out += fmt::format("{}r{}.c{}{}", out.size() > 1 ? " " : "", origin / input_chunks, origin % input_chunks,
                           times > 1 ? fmt::format("x{}", times) : "");
    return out + "}";
}

void add_into(Contributions& into, const Contributions& more) {
    Contributions sum;
    sum.reserve(into.size() + more.size());
    auto a = into.cbegin();
    auto b = more.cbegin();
    while (a != into.cend() || b != more.cend()) {
        if (b == more.cend() || (a != into.cend() && a->first < b->first)) {
            sum.push_back(*a++);
        } else if (a == into.cend() || b->first < a->first) {
            sum.push_back(*b++);
        } else {
            sum.emplace_back(a->first, a->second + b->second);
            ++a, ++b;
        }
    }
    into = std::move(sum);
}

// The operation's data in the schedule's chunk space.
struct Roles {
    int n = 0, in = 0, I = 0, out = 0, O = 0;
    bool in_place = false;
    int block = 0;  // chunks per rank block, for the operations that have them

    int origin(int rank, int input_chunk) const { return rank * I + input_chunk; }
};

std::string make_roles(const Schedule& s, CollOp op, Roles& r) {
    const BufferLayout l = s.effective_layout();
    r = Roles{s.ranks, l.input_offset, l.input_chunks, l.output_offset, l.output_chunks,
              l.input_offset == l.output_offset && l.input_chunks == l.output_chunks, 0};
    if (l.input_offset < 0 || l.output_offset < 0 || l.input_offset + l.input_chunks > s.chunks ||
        l.output_offset + l.output_chunks > s.chunks)
        return "the buffer layout lies outside the schedule's chunks";
    const int n = s.ranks;
    switch (op) {
        case CollOp::allgather:
            r.block = r.in_place ? r.O / n : r.I;
            if (r.O != n * r.block || r.block == 0) return "allgather needs an output of ranks x input chunks";
            break;
        case CollOp::reducescatter:
            r.block = r.in_place ? r.I / n : r.O;
            if (r.I != n * r.block || r.block == 0) return "reducescatter needs an input of ranks x output chunks";
            break;
        case CollOp::alltoall:
            r.block = r.I / n;
            if (r.I != r.O || r.I != n * r.block || r.block == 0)
                return "alltoall needs input and output of ranks x block chunks";
            break;
        default:
            if (r.I != r.O) return fmt::format("{} needs input and output of equal size", to_string(op));
    }
    return "";
}

void initial_state(const Roles& r, CollOp op, int root, SymbolicState& st) {
    for (int q = 0; q < r.n; ++q) {
        auto& mine = st.value[static_cast<std::size_t>(q)];
        int first = 0, count = r.I;
        if (op == CollOp::broadcast && q != root) count = 0;
        if (op == CollOp::allgather && r.in_place) first = q * r.block, count = r.block;
        for (int c = first; c < first + count; ++c)
            mine[static_cast<std::size_t>(r.in + c)] = Contributions{{r.origin(q, c), 1}};
    }
}

// What rank `rank` must hold in output chunk `x` (relative), or nullopt when
// the operation leaves that chunk undefined.
std::optional<Contributions> expected(const Roles& r, CollOp op, int root, int rank, int x) {
    Contributions want;
    auto from_every_rank = [&](int input_chunk) {
        for (int q = 0; q < r.n; ++q) want.emplace_back(r.origin(q, input_chunk), 1);
    };
    switch (op) {
        case CollOp::allreduce: from_every_rank(x); break;
        case CollOp::reduce:
            if (rank != root) return std::nullopt;
            from_every_rank(x);
            break;
        case CollOp::broadcast: want.emplace_back(r.origin(root, x), 1); break;
        case CollOp::allgather:
            want.emplace_back(r.origin(x / r.block, r.in_place ? x : x % r.block), 1);
            break;
        case CollOp::reducescatter:
            if (r.in_place) {
                if (x / r.block != rank) return std::nullopt;
                from_every_rank(x);
            } else {
                from_every_rank(rank * r.block + x);
            }
            break;
        case CollOp::alltoall: want.emplace_back(r.origin(x / r.block, rank * r.block + x % r.block), 1); break;
        case CollOp::sendrecv: want.emplace_back(r.origin((rank + r.n - 1) % r.n, x), 1); break;
    }
    std::sort(want.begin(), want.end());
    return want;
}

}  // namespace

SymbolicState run_symbolic(const Schedule& s, CollOp op, uint64_t order_seed, int root) {
    SymbolicState st;
    st.value.assign(static_cast<std::size_t>(s.participants()),
                    std::vector<Contributions>(static_cast<std::size_t>(s.chunks)));
    if (s.latency_scale != 1.0 || s.fluid) {
        st.problem = s.fluid ? "a fluid schedule holds only steady-state streams: it is for timing only"
                             : "a lumped schedule moves several pieces per send: it is for timing only";
        return st;
    }
    Roles roles;
    st.problem = make_roles(s, op, roles);
    if (!st.problem.empty()) return st;
    initial_state(roles, op, root, st);
    const std::vector<StepId> order = random_dependency_order(s, order_seed);
    if (order.size() != s.steps.size()) {
        st.problem = fmt::format("{} of {} steps never became ready (a dependency cycle)", s.steps.size() - order.size(),
                                 s.steps.size());
        return st;
    }
    for (const Step& step : s.steps)
        if (step.rank < 0 || step.rank >= s.participants() || step.chunk < 0 || step.chunk >= s.chunks ||
            step.src_chunk < 0 || step.src_chunk >= s.chunks) {
            st.problem = "a step's participant or chunk is out of range";
            return st;
        }
    // Empty contributions stand for "holds nothing".
    std::vector<std::vector<std::optional<Contributions>>> state(st.value.size());
    for (std::size_t p = 0; p < state.size(); ++p)
        for (auto& c : st.value[p]) state[p].push_back(c.empty() ? std::nullopt : std::optional<Contributions>(c));
    st.problem = interpret(s, order, state, [](Contributions mine, const Contributions& got) {
        add_into(mine, got);
        return mine;
    });
    for (std::size_t p = 0; p < state.size(); ++p)
        for (std::size_t c = 0; c < state[p].size(); ++c) st.value[p][c] = state[p][c].value_or(Contributions{});
    return st;
}

std::string check_symbolic(const Schedule& s, CollOp op, const SymbolicState& st, int root) {
    if (!st.problem.empty()) return st.problem;
    Roles roles;
    if (std::string bad = make_roles(s, op, roles); !bad.empty()) return bad;
    for (int r = 0; r < s.ranks; ++r) {
        for (int x = 0; x < roles.O; ++x) {
            auto want = expected(roles, op, root, r, x);
            if (!want) continue;
            const auto& got = st.value[static_cast<std::size_t>(r)][static_cast<std::size_t>(roles.out + x)];
            if (got != *want)
                return fmt::format("rank {} chunk {} holds {}, expected {}", r, roles.out + x,
                                   describe(got, roles.I), describe(*want, roles.I));
        }
    }
    return "";
}

std::string verify_schedule(const Schedule& s, CollOp op, int root, int orders) {
    for (int k = 0; k < orders; ++k) {
        const uint64_t seed = 0x5eed0000u + static_cast<uint64_t>(k);
        if (std::string bad = check_symbolic(s, op, run_symbolic(s, op, seed, root), root); !bad.empty())
            return fmt::format("order seed {}: {}", seed, bad);
    }
    return "";
}

}  // namespace collsim
