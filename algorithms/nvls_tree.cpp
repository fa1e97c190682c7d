// NCCL's NVLSTree AllReduce: NVLink SHARP inside each server, the double
// binary tree (node_trees.hpp) between servers. Per channel and pipeline
// chunk, local rank l owns slice l of the chunk. Every GPU of a server sends
// its copy of the slice to the server's NVSwitch, which adds them and hands
// the sum to the owner (multimem.ld_reduce); the owners of slice l in all
// servers (one rail, so one NIC each) reduce it up and broadcast it down one
// of the two trees (rails and chunks alternate between them, so every server
// is an inner node for half of the slices); each owner writes the result
// back to its switch, which copies it to every GPU of the server
// (multimem.st). Only 1/ppn of the buffer leaves each GPU for the network and
// every NIC works at once: on two servers each NIC carries one slice each way
// per chunk, where a ring moves 2(n-1)/n of the buffer through each NIC.
//
// Latency as NCCL counts it (tuning.cc: base + intraLat + 2 log2(nNodes)
// interLat): each chunk's first transfers into the switch pay one NVLink step
// and every tree hop one network step; the switch's own sends pay none.
//
// Closed form: a pipeline. T = launch + the first chunk's trip (the slices up
// to the switch, the sum to its owner, up and down the deeper tree, back out
// through the switch) + (k-1) chunks x the busiest resource per chunk: a
// GPU's NVSwitch link ((ppn+1) slices each way, as in NVLS), an owner's
// network path (its slices over both trees, on average) or its reductions.
#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/node_trees.hpp"
#include "algorithms/nvls_steps.hpp"
#include "algorithms/reducing_switch.hpp"
#include "sim/exec/step_costs.hpp"

namespace collsim {

namespace {

std::vector<DeviceId> node_gpus(const CommLayout& comm, int node) {
    std::vector<DeviceId> out;
    for (int r : comm.nodes[static_cast<std::size_t>(node)]) out.push_back(comm.gpus[static_cast<std::size_t>(r)]);
    return out;
}

Unavailable nvls_tree_requirement(CollOp, const CommLayout& comm) {
    if (comm.node_count() < 2) return std::string("nvls_tree needs ranks on at least two servers (nvls runs one)");
    const auto ppn = comm.ranks_per_node();
    if (!ppn) return std::string("nvls_tree needs the same number of ranks on every server");
    if (*ppn < 2) return std::string("nvls_tree needs at least two ranks per server to reduce in the NVSwitch");
    for (int x = 0; x < comm.node_count(); ++x)
        if (!reducing_nvswitch(*comm.topo, node_gpus(comm, x)))
            return fmt::format("nvls_tree needs, in every server, an nvswitch with in_network_reduction: true linked "
                               "to all its GPUs; the server of rank {} has none",
                               comm.nodes[static_cast<std::size_t>(x)].front());
    return std::nullopt;
}

int nvls_tree_chunks(const CollectiveCall& call, int ppn, int depth) {
    // Stages: into the switch, to the owner, 2 x depth tree hops, back to the
    // switch, out. Per chunk a rank sends and adds ppn slices into the switch
    // and receives ppn from it, besides its own slice's few tree steps.
    return pipeline_chunks(call, largest_piece(call.bytes, call.channels), 4 + 2 * depth, 4 * int64_t{ppn} + 8);
}

Schedule nvls_tree_schedule(const CollectiveCall& call, const CommLayout& comm) {
    const int n = call.ranks, channels = call.channels, m = comm.node_count(), p = *comm.ranks_per_node();
    const NodeTree trees[2] = {node_tree(m, 0), node_tree(m, 1)};
    const int k = nvls_tree_chunks(call, p, std::max(trees[0].depth, trees[1].depth));
    Schedule s;
    s.algorithm = "nvls_tree";
    s.ranks = n;
    s.channels = channels;
    s.chunks = channels * k * p;
    for (int x = 0; x < m; ++x) s.switches.push_back(*reducing_nvswitch(*comm.topo, node_gpus(comm, x)));
    auto owner = [&](int x, int l) { return comm.nodes[static_cast<std::size_t>(x)][static_cast<std::size_t>(l)]; };
    auto chained = [](StepId prev) { return prev == kNoStep ? std::vector<StepId>{} : std::vector<StepId>{after_sent(prev)}; };
    const auto un = static_cast<std::size_t>(n);
    for (int ch = 0; ch < channels; ++ch) {
        // Each GPU streams its contributions to the switch one after another,
        // and, per tree (NCCL runs the two on different channels, each with
        // its own connections), its sends up, down and its stores.
        std::vector<StepId> streamed(un, kNoStep);
        std::vector<std::vector<StepId>> up_prev(2, std::vector<StepId>(un, kNoStep)), down_prev = up_prev,
                                         stored = up_prev;
        for (int j = 0; j < k; ++j) {
            const Bytes chunk_bytes = piece(piece(call.bytes, channels, ch), k, j);
            for (int l = 0; l < p; ++l) {
                const Bytes slice = piece(chunk_bytes, p, l);
                const int chunk = (ch * k + j) * p + l;
                // Rails and chunks alternate between the two trees, so every
                // server is an inner node for half of the slices.
                const int which = (l + j) % 2;
                const NodeTree& t = trees[which];
                // 1. The server's switch adds slice l of every GPU and hands it to the owner.
                std::vector<StepId> acc(static_cast<std::size_t>(m), kNoStep);
                for (int x = 0; x < m; ++x)
                    acc[static_cast<std::size_t>(x)] = switch_reduce(s, comm.nodes[static_cast<std::size_t>(x)], n + x,
                                                                     owner(x, l), ch, chunk, slice, streamed);
                // 2. Up the tree (children first), then the root's sum down.
                std::vector<StepId> up(static_cast<std::size_t>(m), kNoStep), have(static_cast<std::size_t>(m), kNoStep);
                for (auto it = t.order.rbegin(); it != t.order.rend(); ++it) {
                    const auto x = static_cast<std::size_t>(*it);
                    for (int c : t.children[x])
                        acc[x] = s.receive(StepKind::reduce, up[static_cast<std::size_t>(c)], chunk, {acc[x]});
                    if (t.parent[x] < 0) {
                        have[x] = acc[x];
                        continue;
                    }
                    auto& prev = up_prev[static_cast<std::size_t>(which)][static_cast<std::size_t>(owner(*it, l))];
                    std::vector<StepId> deps = chained(prev);
                    deps.push_back(acc[x]);
                    up[x] = prev = s.send(owner(*it, l), owner(t.parent[x], l), ch, chunk, slice, deps, true);
                }
                for (int x : t.order)
                    for (int c : t.children[static_cast<std::size_t>(x)]) {
                        auto& prev = down_prev[static_cast<std::size_t>(which)][static_cast<std::size_t>(owner(x, l))];
                        std::vector<StepId> deps = chained(prev);
                        deps.push_back(have[static_cast<std::size_t>(x)]);
                        prev = s.send(owner(x, l), owner(c, l), ch, chunk, slice, deps, true);
                        have[static_cast<std::size_t>(c)] = s.receive(StepKind::copy, prev, chunk);
                    }
                // 3. Each owner stores the result in its switch, which copies it to every GPU.
                for (int x = 0; x < m; ++x) {
                    auto& prev = stored[static_cast<std::size_t>(which)][static_cast<std::size_t>(owner(x, l))];
                    std::vector<StepId> deps = chained(prev);
                    deps.push_back(have[static_cast<std::size_t>(x)]);
                    prev = s.send(owner(x, l), n + x, ch, chunk, slice, deps, false);
                    switch_multicast(s, comm.nodes[static_cast<std::size_t>(x)], n + x, prev, ch, chunk, slice);
                }
            }
        }
    }
    return s;
}

// The closed form, and its steady state over all k chunks: every GPU's switch link busy both ways with p+1 slices a chunk,
// every owner's tree edges with half a slice a chunk each way (a rail's
// chunks alternate between the trees), its reductions likewise.
FluidForm nvls_tree_form(const CollectiveCall& call, CostModel& m, bool streams) {
    const CommLayout& comm = m.comm();
    const int channels = call.channels, nodes = comm.node_count(), p = *comm.ranks_per_node();
    const NodeTree trees[2] = {node_tree(nodes, 0), node_tree(nodes, 1)};
    const int depth = std::max(trees[0].depth, trees[1].depth);
    const int k = nvls_tree_chunks(call, p, depth);
    const Bytes chunk = largest_piece(largest_piece(call.bytes, channels), k);
    const Bytes slice = largest_piece(chunk, p), half = largest_piece(slice, 2);  // half: a slice per tree, on average
    Estimate up, down, period;
    for (int x = 0; x < nodes; ++x) {
        const DeviceId sw = *reducing_nvswitch(*comm.topo, node_gpus(comm, x));
        for (int r : comm.nodes[static_cast<std::size_t>(x)]) {
            const DeviceId g = m.gpu(r);
            up = slower(up, m.send(g, sw, chunk, channels));
            down = slower(down, m.send(sw, g, slice, channels, 0, false) + m.send(g, sw, slice, channels, 0, false) +
                                    m.send(sw, g, slice, channels, 0, false));
            period = slower(period, Estimate{Time{}, m.send(g, sw, slice * (p + 1), channels).bandwidth});
            period = slower(period, Estimate{Time{}, m.send(sw, g, slice * (p + 1), channels).bandwidth});
        }
    }
    // Between servers: an owner's slices over both trees (up to its parent,
    // down to its children) share its path; one tree hop of the first chunk.
    Estimate hop;
    for (int x = 0; x < nodes; ++x) {
        int64_t halves = 0, reductions = 0;
        int peer = -1;
        for (const NodeTree& t : trees) {
            const auto ux = static_cast<std::size_t>(x);
            halves += static_cast<int64_t>(t.children[ux].size()) + (t.parent[ux] >= 0 ? 1 : 0);
            reductions += static_cast<int64_t>(t.children[ux].size());
            if (peer < 0) peer = t.parent[ux] >= 0 ? t.parent[ux] : t.children[ux].empty() ? -1 : t.children[ux].front();
        }
        const int r = comm.nodes[static_cast<std::size_t>(x)].front(), q = comm.nodes[static_cast<std::size_t>(peer)].front();
        hop = slower(hop, m.send(m.gpu(r), m.gpu(q), slice, channels));
        period = slower(period, Estimate{Time{}, m.send(m.gpu(r), m.gpu(q), half * halves, channels).bandwidth});
        period = slower(period, Estimate{Time{}, m.reduce_steps(m.gpu(r), half, reductions, channels).bandwidth});
    }
    Estimate tree_trip;
    for (int h = 0; h < 2 * depth; ++h) tree_trip = tree_trip + hop;
    FluidForm f{m.launch() + up + down + tree_trip + Estimate{Time{}, period.bandwidth * (k - 1)},
                period.bandwidth * k, {}, {}};
    if (!streams) return f;
    const int n = comm.size();
    for (int x = 0; x < nodes; ++x) f.switches.push_back(*reducing_nvswitch(*comm.topo, node_gpus(comm, x)));
    const Bytes rest = slice * (p + 1) * k, tree_rest = half * k;
    auto owner = [&](int x, int l) { return comm.nodes[static_cast<std::size_t>(x)][static_cast<std::size_t>(l)]; };
    for (int ch = 0; ch < channels; ++ch) {
        for (int r = 0; r < n; ++r) {
            const int sw = n + comm.node_of[static_cast<std::size_t>(r)];
            f.streams.push_back(FluidStream{r, sw, ch, rest});
            f.streams.push_back(FluidStream{sw, r, ch, rest});
        }
        for (int x = 0; x < nodes; ++x)
            for (int l = 0; l < p; ++l) {
                int64_t reductions = 0;
                for (const NodeTree& t : trees) {
                    const int up_to = t.parent[static_cast<std::size_t>(x)];
                    reductions += static_cast<int64_t>(t.children[static_cast<std::size_t>(x)].size());
                    if (up_to < 0) continue;
                    f.streams.push_back(FluidStream{owner(x, l), owner(up_to, l), ch, tree_rest});
                    f.streams.push_back(FluidStream{owner(up_to, l), owner(x, l), ch, tree_rest});
                }
                f.streams.push_back(FluidStream{owner(x, l), kMemoryStream, ch,
                                                exposed_reduction(half, m.protocol()) * reductions * k});
            }
    }
    return f;
}

Estimate nvls_tree_estimate(const CollectiveCall& call, CostModel& m) { return nvls_tree_form(call, m, false).closed; }

}  // namespace

AlgorithmInfo nvls_tree_algorithm() {
    AlgorithmInfo a{"nvls_tree",
                         "NCCL's NVLSTree AllReduce: NVLink SHARP inside each server, double binary trees of one GPU "
                         "per server between them",
                         {CollOp::allreduce},
                         NcclFamily::nvls_tree,
                         "NCCL's NVLSTree",
                         nvls_tree_requirement,
                         nvls_tree_schedule,
                         nvls_tree_estimate};
    a.fluid = nvls_tree_form;
    return a;
}

}  // namespace collsim
