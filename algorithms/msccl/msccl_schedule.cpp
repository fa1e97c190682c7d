// Turning an MSCCL algorithm into a Schedule: each MSCCL step becomes the
// primitive steps it does, one per chunk of its count (a receive-reduce-send
// is a reduce then a send of the sum). Steps are placed in an order where
// every dependency and every matching send comes first; a step that can
// never be placed (a receive nobody sends, a dependency cycle) is an error.
#include <deque>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "algorithms/chunking.hpp"
#include "algorithms/msccl/msccl_algorithm.hpp"

namespace collsim::msccl {

namespace {

bool sends(StepType t) { return t == StepType::s || t == StepType::rcs || t == StepType::rrs || t == StepType::rrcs; }
bool receives(StepType t) {
    return t == StepType::r || t == StepType::rrc || t == StepType::rcs || t == StepType::rrs || t == StepType::rrcs;
}

struct Pending {
    std::vector<StepId> sends;  // one per chunk
    SourceLocation where;
};

}  // namespace

Schedule msccl_schedule(const MscclAlgorithm& a, Bytes bytes) {
    const int n = a.ngpus;
    const int I = a.gpus[0].i_chunks, O = a.gpus[0].o_chunks;
    int S = 0;
    for (const MscclGpu& g : a.gpus) S = std::max(S, g.s_chunks);
    // A receive-reduce-send keeps its sum in a chunk of its own until sent.
    std::vector<std::vector<int>> temp(static_cast<std::size_t>(n));
    int temps = 0;
    for (const MscclGpu& g : a.gpus) {
        int used = 0;
        for (const MscclBlock& b : g.blocks) {
            temp[static_cast<std::size_t>(g.id)].push_back(I + O + S + used);
            int most = 0;
            for (const MscclStep& st : b.steps)
                if (st.type == StepType::rrs) most = std::max(most, st.cnt);
            used += most;
        }
        temps = std::max(temps, used);
    }
    Schedule s;
    s.algorithm = a.name.empty() ? "msccl" : a.name;
    s.ranks = n;
    s.channels = a.nchannels;
    s.chunks = I + O + S + temps;
    const bool in_place = a.inplace;
    s.layout = in_place ? (I > 0 ? BufferLayout{0, I, 0, I} : BufferLayout{I, O, I, O}) : BufferLayout{0, I, I, O};
    const int reported = a.op == CollOp::allgather ? (O > 0 ? O : I) : (I > 0 ? I : O);
    auto size_of = [&](int chunk) { return piece(bytes, std::max(reported, 1), chunk % std::max(reported, 1)); };
    auto chunk_of = [&](char buf, int off) { return buf == 'i' ? off : buf == 'o' ? I + off : I + O + off; };

    // done[g][b][k]: what waits for step k of block b on gpu g (sends: once sent).
    std::vector<std::vector<std::vector<std::vector<StepId>>>> done(static_cast<std::size_t>(n));
    std::vector<std::vector<std::size_t>> cursor(static_cast<std::size_t>(n));
    for (const MscclGpu& g : a.gpus) {
        for (const MscclBlock& b : g.blocks) done[static_cast<std::size_t>(g.id)].emplace_back(b.steps.size());
        cursor[static_cast<std::size_t>(g.id)].assign(g.blocks.size(), 0);
    }
    auto block_index = [&](const MscclGpu& g, int id) {
        for (std::size_t i = 0; i < g.blocks.size(); ++i)
            if (g.blocks[i].id == id) return i;
        return g.blocks.size();
    };
    std::map<std::tuple<int, int, int>, std::deque<Pending>> wire;  // (from, to, channel)

    auto place = [&](const MscclGpu& g, std::size_t bi, std::size_t k) {
        const MscclBlock& b = g.blocks[bi];
        const MscclStep& st = b.steps[k];
        std::vector<StepId> deps;
        if (k > 0) deps = done[static_cast<std::size_t>(g.id)][bi][k - 1];
        if (st.depid >= 0) {
            const auto& d = done[static_cast<std::size_t>(g.id)][block_index(g, st.depid)][static_cast<std::size_t>(st.deps)];
            deps.insert(deps.end(), d.begin(), d.end());
        }
        std::vector<StepId> out;
        if (st.type == StepType::nop) out = deps;
        const std::span<const StepId> after(deps);
        Pending incoming;
        if (receives(st.type)) {
            auto& q = wire[{b.recv, g.id, b.chan}];
            incoming = std::move(q.front());
            q.pop_front();
            if (static_cast<int>(incoming.sends.size()) != st.cnt)
                throw InputError(st.where, "step.cnt",
                                 fmt::format("the count of the matching send on gpu {} ({}:{})", b.recv,
                                             incoming.where.line, incoming.where.column),
                                 fmt::format("{} against {}", st.cnt, incoming.sends.size()));
        }
        Pending outgoing{{}, st.where};
        for (int c = 0; c < st.cnt; ++c) {
            const int src = chunk_of(st.srcbuf, st.srcoff + c), dst = chunk_of(st.dstbuf, st.dstoff + c);
            const Bytes size = size_of(dst);
            StepId held = kNoStep;  // the step after which the chunk to send is ready
            int send_chunk = src;
            switch (st.type) {
                case StepType::nop:
                case StepType::s: break;
                case StepType::r:
                case StepType::rcs:
                    held = s.receive(StepKind::copy, incoming.sends[static_cast<std::size_t>(c)], dst, after);
                    send_chunk = dst;
                    break;
                case StepType::rrc:
                case StepType::rrcs:
                case StepType::rrs: {
                    const int into = st.type == StepType::rrs ? temp[static_cast<std::size_t>(g.id)][bi] + c : dst;
                    held = s.receive(StepKind::reduce, incoming.sends[static_cast<std::size_t>(c)], into, after);
                    s.steps[held].src_chunk = src;
                    send_chunk = into;
                    break;
                }
                case StepType::re:
                case StepType::cpy:
                    held = s.local(st.type == StepType::re ? StepKind::local_reduce : StepKind::local_copy, g.id, b.chan,
                                   src, dst, size, after);
                    break;
            }
            if (held != kNoStep) out.push_back(held);
            if (sends(st.type)) {
                const StepId sent = held == kNoStep ? s.send(g.id, b.send, b.chan, send_chunk, size, after)
                                                    : s.send(g.id, b.send, b.chan, send_chunk, size, {held});
                outgoing.sends.push_back(sent);
                out.push_back(after_sent(sent));
            }
        }
        if (sends(st.type)) wire[{g.id, b.send, b.chan}].push_back(std::move(outgoing));
        done[static_cast<std::size_t>(g.id)][bi][k] = std::move(out);
    };

    for (bool progress = true; progress;) {
        progress = false;
        for (const MscclGpu& g : a.gpus)
            for (std::size_t bi = 0; bi < g.blocks.size(); ++bi) {
                const MscclBlock& b = g.blocks[bi];
                auto& k = cursor[static_cast<std::size_t>(g.id)][bi];
                while (k < b.steps.size()) {
                    const MscclStep& st = b.steps[k];
                    if (st.depid >= 0 &&
                        cursor[static_cast<std::size_t>(g.id)][block_index(g, st.depid)] <= static_cast<std::size_t>(st.deps))
                        break;
                    if (receives(st.type) && wire[{b.recv, g.id, b.chan}].empty()) break;
                    place(g, bi, k);
                    ++k;
                    progress = true;
                }
            }
    }
    for (const MscclGpu& g : a.gpus)
        for (std::size_t bi = 0; bi < g.blocks.size(); ++bi) {
            const std::size_t k = cursor[static_cast<std::size_t>(g.id)][bi];
            if (k < g.blocks[bi].steps.size())
                throw InputError(g.blocks[bi].steps[k].where, "step",
                                 "a step that can run: a matching send for each receive and no dependency cycle",
                                 fmt::format("gpu {} tb {} step {} waiting forever", g.id, g.blocks[bi].id, k));
        }
    for (const auto& [conn, q] : wire)
        if (!q.empty())
            throw InputError(q.front().where, "step",
                             fmt::format("a receive on gpu {} channel {} for this send", std::get<1>(conn), std::get<2>(conn)),
                             "none");
    return s;
}

}  // namespace collsim::msccl
