// NCCL's double binary tree AllReduce: within each server the ranks form a
// chain; across servers, two binary trees whose leaves are each other's inner
// nodes (node_trees.hpp). Half of each channel's data goes down each tree, in
// pipeline chunks: each chunk is reduced up the tree (every rank adds what
// its children send, then passes the sum up) and the root's result is
// broadcast back down.
//
// In tree 0 a server's chain runs from its last rank up to its first (the
// head, which links to the other servers); in tree 1 the other way, so the
// two trees use different GPUs (and NICs) between servers.
//
// Closed form: a pipeline over a tree. T = launch + the first chunk's longest
// path (up from the deepest leaf with every reduction on the way, then down)
// + (k-1) chunks x the busiest resource's time per chunk, where every
// transfer of one chunk round (both trees, every channel, up and down) shares
// the links it crosses and every reduction shares its GPU's memory. The first
// chunk shares links only with its own tree's other channels (the other
// tree's first chunk is elsewhere in the fabric by then). Within 2% for one
// chunk and for many (hundreds); with tens of chunks it is up to ~13% high,
// because the busiest link starts working before the first chunk's trip ends.
#include "algorithms/algorithm.hpp"
#include "algorithms/node_trees.hpp"
#include "sim/exec/step_costs.hpp"

namespace collsim {

namespace {

struct RankTree {
    int root = -1;
    std::vector<int> parent;                 // -1 at the root
    std::vector<std::vector<int>> children;  // chain child first, then servers
    std::vector<int> order;                  // parents before children
};

RankTree make_tree(const CommLayout& comm, int which) {
    const int m = comm.node_count(), n = comm.size();
    const std::vector<int> node_parent = node_tree(m, which).parent;
    auto head = [&](int node) {
        const auto& ranks = comm.nodes[static_cast<std::size_t>(node)];
        return which == 0 ? ranks.front() : ranks.back();
    };
    RankTree t;
    t.parent.assign(static_cast<std::size_t>(n), -1);
    t.children.assign(static_cast<std::size_t>(n), {});
    for (int node = 0; node < m; ++node) {
        const auto& ranks = comm.nodes[static_cast<std::size_t>(node)];
        const int len = static_cast<int>(ranks.size());
        for (int l = 0; l < len; ++l) {
            const int r = ranks[static_cast<std::size_t>(l)];
            const int up = which == 0 ? l - 1 : l + 1;
            if (up >= 0 && up < len) t.parent[static_cast<std::size_t>(r)] = ranks[static_cast<std::size_t>(up)];
        }
        const int pp = node_parent[static_cast<std::size_t>(node)];
        if (pp >= 0) t.parent[static_cast<std::size_t>(head(node))] = head(pp);
        else t.root = head(node);
    }
    for (int r = 0; r < n; ++r)  // chain children come first: ranks of the same server
        if (int p = t.parent[static_cast<std::size_t>(r)]; p >= 0 && comm.node_of[static_cast<std::size_t>(r)] == comm.node_of[static_cast<std::size_t>(p)])
            t.children[static_cast<std::size_t>(p)].push_back(r);
    for (int r = 0; r < n; ++r)
        if (int p = t.parent[static_cast<std::size_t>(r)]; p >= 0 && comm.node_of[static_cast<std::size_t>(r)] != comm.node_of[static_cast<std::size_t>(p)])
            t.children[static_cast<std::size_t>(p)].push_back(r);
    t.order.push_back(t.root);
    for (std::size_t i = 0; i < t.order.size(); ++i)
        for (int c : t.children[static_cast<std::size_t>(t.order[i])]) t.order.push_back(c);
    return t;
}

int tree_chunks(const CollectiveCall& call) {
    return pipeline_chunks(call, largest_piece(largest_piece(call.bytes, call.channels), 2));
}

Schedule tree_schedule(const CollectiveCall& call, const CommLayout& comm) {
    const int n = call.ranks, channels = call.channels, k = tree_chunks(call);
    Schedule s;
    s.algorithm = "tree";
    s.ranks = n;
    s.channels = channels;
    s.chunks = channels * 2 * k;
    if (n < 2) return s;
    const RankTree trees[2] = {make_tree(comm, 0), make_tree(comm, 1)};
    for (int ch = 0; ch < channels; ++ch)
        for (int which = 0; which < 2; ++which) {
            const RankTree& t = trees[which];
            const Bytes half = piece(piece(call.bytes, channels, ch), 2, which);
            const auto un = static_cast<std::size_t>(n);
            std::vector<StepId> up(un, kNoStep), last_reduce(un, kNoStep), down(un, kNoStep), have(un, kNoStep);
            for (int j = 0; j < k; ++j) {
                const int chunk = (ch * 2 + which) * k + j;
                const Bytes bytes = piece(half, k, j);
                // Up, children before parents: add each child's chunk, then pass the sum on.
                for (auto it = t.order.rbegin(); it != t.order.rend(); ++it) {
                    const auto v = static_cast<std::size_t>(*it);
                    for (int c : t.children[v]) {
                        const StepId from = up[static_cast<std::size_t>(c)];
                        last_reduce[v] = last_reduce[v] == kNoStep
                                             ? s.receive(StepKind::reduce, from, chunk)
                                             : s.receive(StepKind::reduce, from, chunk, {last_reduce[v]});
                    }
                    if (t.parent[v] < 0) continue;
                    std::vector<StepId> deps;
                    if (!t.children[v].empty()) deps.push_back(last_reduce[v]);
                    if (up[v] != kNoStep) deps.push_back(after_sent(up[v]));
                    up[v] = s.send(*it, t.parent[v], ch, chunk, bytes, deps);
                }
                // Down, parents before children: the root's sum travels to every rank.
                have[static_cast<std::size_t>(t.root)] = last_reduce[static_cast<std::size_t>(t.root)];
                for (int v : t.order) {
                    const auto uv = static_cast<std::size_t>(v);
                    if (t.parent[uv] >= 0) have[uv] = s.receive(StepKind::copy, down[uv], chunk);
                    for (int c : t.children[uv]) {
                        const auto uc = static_cast<std::size_t>(c);
                        std::vector<StepId> deps{have[uv]};
                        if (down[uc] != kNoStep) deps.push_back(after_sent(down[uc]));
                        down[uc] = s.send(v, c, ch, chunk, bytes, deps);
                    }
                }
            }
        }
    return s;
}

// The closed form, and its steady state: every transfer of a chunk round
// and every GPU's reductions busy with all k chunks.
FluidForm tree_form(const CollectiveCall& call, CostModel& m, bool streams) {
    const int n = call.ranks, channels = call.channels, k = tree_chunks(call);
    FluidForm f{m.launch(), Time{}, {}, {}};
    if (n < 2) return f;
    const CommLayout& comm = m.comm();
    const RankTree trees[2] = {make_tree(comm, 0), make_tree(comm, 1)};
    const Bytes b = largest_piece(largest_piece(largest_piece(call.bytes, channels), 2), k);
    auto gpu = [&](int r, int ch = 0) { return m.gpu(r, ch); };
    // One chunk round: every transfer of both trees and all channels at once,
    // as each tree's sends up (channel by channel, channel 0 first) and then
    // down, so that the first chunk's trip below times slices of it.
    std::vector<Transfer> round;
    std::size_t slice[2][2] = {};  // per tree: where its ups and its downs begin in round
    for (int which = 0; which < 2; ++which)
        for (int down = 0; down < 2; ++down) {
            slice[which][down] = round.size();
            for (int ch = 0; ch < channels; ++ch)
                for (int v = 0; v < n; ++v)
                    if (const int p = trees[which].parent[static_cast<std::size_t>(v)]; p >= 0)
                        round.push_back(down ? Transfer{gpu(p, ch), gpu(v, ch), b, ch} : Transfer{gpu(v, ch), gpu(p, ch), b, ch});
        }
    std::vector<int> reductions(static_cast<std::size_t>(n), 0);
    for (const RankTree& t : trees)
        for (int v = 0; v < n; ++v)
            reductions[static_cast<std::size_t>(v)] += channels * static_cast<int>(t.children[static_cast<std::size_t>(v)].size());
    const std::vector<const Path*> paths = m.paths_of(round);
    const std::vector<Estimate> each = m.concurrent_each(round, paths, round.size());
    Time period{};
    for (const Estimate& e : each) period = std::max(period, e.bandwidth);
    for (int v = 0; v < n; ++v)
        period = std::max(period, m.reduce_steps(gpu(v), b, reductions[static_cast<std::size_t>(v)]).bandwidth);
    if (streams) {
        const Bytes rest = b * k;
        for (int ch = 0; ch < channels; ++ch)
            for (const RankTree& t : trees)
                for (int v = 0; v < n; ++v)
                    if (const int p = t.parent[static_cast<std::size_t>(v)]; p >= 0) {
                        f.streams.push_back(FluidStream{v, p, ch, rest});
                        f.streams.push_back(FluidStream{p, v, ch, rest});
                    }
        for (int v = 0; v < n; ++v)
            f.streams.push_back(FluidStream{v, kMemoryStream, 0,
                                            exposed_reduction(b, m.protocol()) * k *
                                                reductions[static_cast<std::size_t>(v)]});
    }
    // The first chunk's longest path through each tree. Its transfers share
    // links with the same tree's other channels, moving in step with them,
    // but hardly with the other tree, whose first chunk is elsewhere.
    Estimate fill;
    for (int which = 0; which < 2; ++which) {
        const RankTree& t = trees[which];
        // Channel 0's hops, timed while all of this tree's channels load the links.
        const std::size_t hops = slice[which][1] - slice[which][0];
        auto timed = [&](std::size_t at) {
            return m.concurrent_each(std::span(round).subspan(at, hops), std::span(paths).subspan(at, hops),
                                     hops / static_cast<std::size_t>(channels));
        };
        const std::vector<Estimate> each_up = timed(slice[which][0]), each_down = timed(slice[which][1]);
        std::vector<Estimate> hop_up(static_cast<std::size_t>(n)), hop_down(static_cast<std::size_t>(n));
        std::size_t at = 0;  // channel 0's transfers come first
        for (int v = 0; v < n; ++v)
            if (t.parent[static_cast<std::size_t>(v)] >= 0) {
                hop_up[static_cast<std::size_t>(v)] = each_up[at];
                hop_down[static_cast<std::size_t>(v)] = each_down[at];
                ++at;
            }
        std::vector<Estimate> ready(static_cast<std::size_t>(n));  // up: v's sum of the first chunk
        for (auto it = t.order.rbegin(); it != t.order.rend(); ++it) {
            const auto v = static_cast<std::size_t>(*it);
            Estimate arrived;
            for (int c : t.children[v]) arrived = slower(arrived, ready[static_cast<std::size_t>(c)] + hop_up[static_cast<std::size_t>(c)]);
            const auto kids = static_cast<int64_t>(t.children[v].size());
            // Its reductions share the GPU's memory with the other channels'.
            ready[v] = arrived + m.reduce_steps(gpu(*it), b, kids, channels);
        }
        std::vector<Estimate> got(static_cast<std::size_t>(n));
        got[static_cast<std::size_t>(t.root)] = ready[static_cast<std::size_t>(t.root)];
        Estimate deepest = got[static_cast<std::size_t>(t.root)];
        for (int v : t.order)
            for (int c : t.children[static_cast<std::size_t>(v)]) {
                got[static_cast<std::size_t>(c)] = got[static_cast<std::size_t>(v)] + hop_down[static_cast<std::size_t>(c)];
                deepest = slower(deepest, got[static_cast<std::size_t>(c)]);
            }
        fill = which == 0 ? deepest : slower(fill, deepest);
    }
    f.steady = period * k;
    f.closed += fill + Estimate{Time{}, period * (k - 1)};
    return f;
}

Estimate tree_estimate(const CollectiveCall& call, CostModel& m) { return tree_form(call, m, false).closed; }

}  // namespace

AlgorithmInfo tree_algorithm() {
    AlgorithmInfo a{"tree",
                         "NCCL's double binary tree: chains inside servers, two complementary binary trees between "
                         "them, pipelined chunks reduced up and broadcast down",
                         {CollOp::allreduce},
                         NcclFamily::tree,
                         "NCCL's tree",
                         {},
                         tree_schedule,
                         tree_estimate};
    a.fluid = tree_form;
    return a;
}

}  // namespace collsim
