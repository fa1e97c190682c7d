#include "sim/replay/trace_check.hpp"

#include <map>
#include <set>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"

namespace collsim {

namespace {
constexpr std::size_t kMaxErrors = 20;

class Errors {
public:
    void add(const TraceOp& op, int rank, std::string expected, std::string found) {
        if (list_.size() < kMaxErrors)
            list_.emplace_back(op.where, fmt::format("op '{}' on rank {}", op.name, rank), std::move(expected),
                               std::move(found));
    }
    void add(SourceLocation where, std::string field, std::string expected, std::string found) {
        if (list_.size() < kMaxErrors) list_.emplace_back(std::move(where), std::move(field), std::move(expected),
                                                          std::move(found));
    }
    void throw_if_any() {
        if (!list_.empty()) throw InputErrors(std::move(list_));
    }

private:
    std::vector<InputError> list_;
};

std::string describe(const CollectiveSpec& c) {
    return fmt::format("{} of {} bytes", to_string(c.op), c.bytes.count());
}

bool same_call(const CollectiveSpec& a, const CollectiveSpec& b) {
    // Uneven all-to-alls differ per rank by design; only the operation must agree.
    if (a.op != b.op || a.split.empty() != b.split.empty()) return false;
    return !a.split.empty() || (a.bytes == b.bytes && a.root == b.root);
}

// Ops of a program in program order that are collectives on communicator c.
std::vector<OpIndex> calls_on(const Program& p, uint32_t c) {
    std::vector<OpIndex> out;
    for (OpIndex i = 0; i < p.ops.size(); ++i)
        if (p.ops[i].kind == OpKind::collective && p.ops[i].collective.comm == c) out.push_back(i);
    return out;
}

void check_membership(const Trace& t, int r, Errors& e, std::set<CollOp>& unsimulable) {
    const Program& p = t.program(r);
    for (const TraceOp& op : p.ops) {
        if (op.kind == OpKind::collective) {
            const Communicator& c = t.communicators[op.collective.comm];
            const int g = c.group_of[static_cast<std::size_t>(r)];
            if (g < 0) {
                e.add(op, r, fmt::format("a rank in a group of communicator '{}'", c.name), "a rank in none");
                continue;
            }
            if (!simulable(op.collective) && unsimulable.insert(op.collective.op).second)
                e.add(op, r, "a collective that some algorithm of collsim implements (" + algorithm_choices() + ")",
                      std::string(to_string(op.collective.op)));
            const std::size_t n = c.groups[static_cast<std::size_t>(g)].size();
            if (!op.collective.split.empty() && op.collective.split.size() != n)
                e.add(op, r, fmt::format("a split with one size per member of its '{}' group ({})", c.name, n),
                      fmt::format("{} sizes", op.collective.split.size()));
            if (op.collective.root < 0 || op.collective.root >= static_cast<int>(n))
                e.add(op, r, fmt::format("a root from 0 to {}", n - 1), std::to_string(op.collective.root));
        } else if (op.kind == OpKind::send || op.kind == OpKind::recv) {
            const int peer = p2p_peer(t, r, op.p2p);
            if (peer < 0)
                e.add(op, r, "a peer inside its group (next and prev do not wrap around)", "none");
            else if (peer >= t.ranks)
                e.add(op, r, fmt::format("a peer from rank 0 to {}", t.ranks - 1), fmt::format("rank {}", peer));
            else if (peer == r)
                e.add(op, r, "a peer other than the rank itself", fmt::format("rank {}", r));
        }
    }
}

void check_sequences(const Trace& t, Errors& e) {
    for (uint32_t c = 0; c < t.communicators.size(); ++c) {
        const Communicator& comm = t.communicators[c];
        for (const auto& group : comm.groups) {
            const Program* first = &t.program(group[0]);
            const std::vector<OpIndex> expect = calls_on(*first, c);
            for (std::size_t m = 1; m < group.size(); ++m) {
                const Program* p = &t.program(group[m]);
                if (p == first) continue;  // a shared program agrees with itself
                const std::vector<OpIndex> got = calls_on(*p, c);
                const std::size_t common = std::min(expect.size(), got.size());
                bool bad = false;
                for (std::size_t k = 0; k < common && !bad; ++k) {
                    const CollectiveSpec& a = first->ops[expect[k]].collective;
                    const CollectiveSpec& b = p->ops[got[k]].collective;
                    if (!same_call(a, b)) {
                        e.add(p->ops[got[k]], group[m],
                              fmt::format("call {} on '{}' to match rank {} ({} '{}')", k + 1, comm.name, group[0],
                                          describe(a), first->ops[expect[k]].name),
                              describe(b));
                        bad = true;
                    }
                }
                if (!bad && got.size() != expect.size()) {
                    const TraceOp& where = got.size() > expect.size() ? p->ops[got[common]]
                                           : got.empty()             ? first->ops[expect[common]]
                                                                     : p->ops[got.back()];
                    e.add(where, group[m],
                          fmt::format("{} collectives on '{}', as rank {} issues", expect.size(), comm.name, group[0]),
                          fmt::format("{}", got.size()));
                }
            }
        }
    }
}

void check_pairs(const Trace& t, Errors& e) {
    // (from, to) -> number of sends minus receives; the first unmatched op is kept for the message.
    std::map<std::pair<int, int>, std::pair<int, std::pair<const TraceOp*, int>>> balance;
    for (int r = 0; r < t.ranks; ++r) {
        for (const TraceOp& op : t.program(r).ops) {
            if (op.kind != OpKind::send && op.kind != OpKind::recv) continue;
            const int peer = p2p_peer(t, r, op.p2p);
            if (peer < 0 || peer == r || peer >= t.ranks) continue;
            const bool send = op.kind == OpKind::send;
            auto& b = balance[send ? std::pair{r, peer} : std::pair{peer, r}];
            b.first += send ? 1 : -1;
            if (!b.second.first) b.second = {&op, r};
        }
    }
    for (const auto& [pair, b] : balance) {
        if (b.first == 0) continue;
        e.add(*b.second.first, b.second.second,
              fmt::format("as many receives on rank {} from rank {} as sends", pair.second, pair.first),
              fmt::format("{} more {}", std::abs(b.first), b.first > 0 ? "sends" : "receives"));
    }
}

// Kahn's algorithm over `after` and stream order; what is left is a cycle.
void check_acyclic(const Trace& t, int r, Errors& e) {
    const Program& p = t.program(r);
    const std::size_t n = p.ops.size();
    std::vector<std::vector<OpIndex>> next(n);
    std::vector<int> waiting(n, 0);
    std::map<uint32_t, OpIndex> last_on_stream;
    for (OpIndex i = 0; i < n; ++i) {
        for (OpIndex a : p.ops[i].after) {
            next[a].push_back(i);
            ++waiting[i];
        }
        auto it = last_on_stream.find(p.ops[i].stream);
        if (it != last_on_stream.end()) {
            next[it->second].push_back(i);
            ++waiting[i];
        }
        last_on_stream[p.ops[i].stream] = i;
    }
    std::vector<OpIndex> ready;
    for (OpIndex i = 0; i < n; ++i)
        if (waiting[i] == 0) ready.push_back(i);
    std::size_t done = 0;
    while (!ready.empty()) {
        OpIndex i = ready.back();
        ready.pop_back();
        ++done;
        for (OpIndex j : next[i])
            if (--waiting[j] == 0) ready.push_back(j);
    }
    if (done == n) return;
    for (OpIndex i = 0; i < n; ++i)
        if (waiting[i] > 0) {
            e.add(p.ops[i], r, "dependencies that do not lead back to the op (after and stream order)",
                  "a cycle through it");
            return;
        }
}
}  // namespace

void check_trace(const Trace& t) {
    Errors e;
    std::set<const Program*> seen;
    std::set<CollOp> unsimulable;  // reported once per operation
    for (int r = 0; r < t.ranks; ++r) {
        check_membership(t, r, e, unsimulable);
        if (seen.insert(&t.program(r)).second) check_acyclic(t, r, e);
    }
    e.throw_if_any();
    check_sequences(t, e);
    check_pairs(t, e);
    e.throw_if_any();
}

}  // namespace collsim
