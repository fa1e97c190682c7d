// CollNet (SHARP) AllReduce, after NCCL's CollNet Direct: inside every server
// each rank scatters block b of its buffer straight to local rank b, which
// adds them (a direct reduce-scatter over NVLink); local rank l then sends
// block l, in pipeline chunks, into the network, where the reducing switches
// of its rail's aggregation tree (sharp_tree.hpp) add the servers'
// contributions on the way up and the root multicasts the sum back down; at
// last each rank sends its finished block straight to the other local ranks.
// A switch adds at line rate (free here; its ports carry the bytes).
//
// NCCL charges CollNet one network step (31 us Simple, v2.30.7) for the trip
// through the switches; the GPUs' sends into the tree pay it, the switches'
// sends pay only their links.
//
// Closed form: T = launch + the direct reduce-scatter (each rank's p-1 blocks
// through its link at once; the chunks are added as they arrive, so only the
// last chunk from each of the p-1 senders adds time) + the first chunk's trip up
// and down the tree + (k-1) chunks x the busiest link's load per chunk + the
// direct all-gather of the last chunk (the all-gather of chunk j overlaps the
// network's work on the later chunks).
#include <map>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/sharp_tree.hpp"
#include "sim/exec/step_costs.hpp"

namespace collsim {

namespace {

std::vector<DeviceId> rail_gpus(const CommLayout& comm, int local) {
    std::vector<DeviceId> out;
    for (const auto& node : comm.nodes) out.push_back(comm.gpus[static_cast<std::size_t>(node[static_cast<std::size_t>(local)])]);
    return out;
}

Unavailable collnet_requirement(CollOp, const CommLayout& comm) {
    if (comm.node_count() < 2) return std::string("collnet needs ranks on at least two servers");
    if (!comm.ranks_per_node()) return std::string("collnet needs the same number of ranks on every server");
    Routes routes(*comm.topo);
    for (int l = 0; l < *comm.ranks_per_node(); ++l) {
        std::string why;
        if (!sharp_tree(*comm.topo, routes, rail_gpus(comm, l), &why)) return "collnet: " + why;
    }
    return std::nullopt;
}

int collnet_chunks(const CollectiveCall& call, int ppn) {
    return pipeline_chunks(call, largest_piece(largest_piece(call.bytes, call.channels), ppn));
}

// One rail's tree in participant numbers: children per participant, and the
// tree's participants with children listed after their parent.
struct RailTree {
    int root = 0;
    std::map<int, std::vector<int>> children;
    std::vector<int> top_down;  // switches, parents first
};

RailTree rail_tree(const SharpTree& t, const std::vector<int>& rail_ranks, const std::map<DeviceId, int>& participant) {
    RailTree r;
    r.root = participant.at(t.root);
    std::map<int, int> parent;
    for (std::size_t i = 0; i < rail_ranks.size(); ++i) {
        const int up = participant.at(t.parent_of_gpu[i]);
        r.children[up].push_back(rail_ranks[i]);
    }
    for (const auto& [child, up] : t.up) {
        r.children[participant.at(up)].push_back(participant.at(child));
        parent[participant.at(child)] = participant.at(up);
    }
    r.top_down.push_back(r.root);
    for (std::size_t i = 0; i < r.top_down.size(); ++i)
        for (int c : r.children[r.top_down[i]])
            if (r.children.count(c)) r.top_down.push_back(c);
    return r;
}

Schedule collnet_schedule(const CollectiveCall& call, const CommLayout& comm) {
    const int n = call.ranks, channels = call.channels, p = *comm.ranks_per_node(), k = collnet_chunks(call, p);
    Schedule s;
    s.algorithm = "collnet";
    s.ranks = n;
    s.channels = channels;
    s.chunks = p * k * channels;
    Routes routes(*comm.topo);
    std::map<DeviceId, int> participant;  // switch device -> participant index
    std::vector<RailTree> trees;
    for (int l = 0; l < p; ++l) {
        const SharpTree t = *sharp_tree(*comm.topo, routes, rail_gpus(comm, l));
        for (DeviceId d : t.switches)
            if (participant.emplace(d, n + static_cast<int>(s.switches.size())).second) s.switches.push_back(d);
        std::vector<int> ranks;
        for (const auto& node : comm.nodes) ranks.push_back(node[static_cast<std::size_t>(l)]);
        trees.push_back(rail_tree(t, ranks, participant));
    }
    const auto un = static_cast<std::size_t>(s.participants());
    for (int ch = 0; ch < channels; ++ch) {
        const Bytes channel_bytes = piece(call.bytes, channels, ch);
        auto chunk = [&](int block, int j) { return (block * k + j) * channels + ch; };
        auto bytes = [&](int block, int j) { return piece(piece(channel_bytes, p, block), k, j); };
        // 1. Direct reduce-scatter inside each server; summed[r]: rank r's block is complete.
        std::vector<StepId> summed(un, kNoStep);
        // Chunk j from every sender is added before chunk j+1, in arrival order.
        for (const auto& node : comm.nodes)
            for (int b = 0; b < p; ++b)
                for (int j = 0; j < k; ++j)
                    for (int from = 0; from < p; ++from) {
                        if (from == b) continue;
                        const int dst = node[static_cast<std::size_t>(b)];
                        const StepId sent = s.send(node[static_cast<std::size_t>(from)], dst, ch, chunk(b, j), bytes(b, j));
                        auto& last = summed[static_cast<std::size_t>(dst)];
                        last = last == kNoStep ? s.receive(StepKind::reduce, sent, chunk(b, j))
                                               : s.receive(StepKind::reduce, sent, chunk(b, j), {last});
                    }
        // 2. Each rail's block through its switch tree, chunk by chunk.
        std::vector<std::vector<StepId>> back(un, std::vector<StepId>(static_cast<std::size_t>(k), kNoStep));
        for (int l = 0; l < p; ++l) {
            const RailTree& t = trees[static_cast<std::size_t>(l)];
            std::vector<StepId> prev_up(un, kNoStep), prev_down(un, kNoStep);
            for (int j = 0; j < k; ++j) {
                std::vector<StepId> up(un, kNoStep), have(un, kNoStep);
                auto send = [&](int from, int to, const std::vector<StepId>& deps, bool pays) {
                    return s.send(from, to, ch, chunk(l, j), bytes(l, j), deps, pays);
                };
                for (const auto& node : comm.nodes) {  // GPUs send up, paying the network step
                    const int r = node[static_cast<std::size_t>(l)];
                    std::vector<StepId> deps;
                    if (summed[static_cast<std::size_t>(r)] != kNoStep) deps.push_back(summed[static_cast<std::size_t>(r)]);
                    if (prev_up[static_cast<std::size_t>(r)] != kNoStep) deps.push_back(after_sent(prev_up[static_cast<std::size_t>(r)]));
                    int parent = -1;
                    for (const auto& [sw, kids] : t.children)
                        for (int c : kids) parent = c == r ? sw : parent;
                    up[static_cast<std::size_t>(r)] = prev_up[static_cast<std::size_t>(r)] = send(r, parent, deps, true);
                }
                for (auto it = t.top_down.rbegin(); it != t.top_down.rend(); ++it) {  // switches add, children first
                    const auto sw = static_cast<std::size_t>(*it);
                    StepId acc = kNoStep;
                    for (int c : t.children.at(*it)) {
                        const StepId from = up[static_cast<std::size_t>(c)];
                        acc = acc == kNoStep ? s.receive(StepKind::reduce, from, chunk(l, j))
                                             : s.receive(StepKind::reduce, from, chunk(l, j), {acc});
                    }
                    have[sw] = acc;
                    if (*it == t.root) continue;
                    int parent = -1;
                    for (const auto& [q, kids] : t.children)
                        for (int c : kids) parent = c == *it ? q : parent;
                    std::vector<StepId> deps{acc};
                    if (prev_up[sw] != kNoStep) deps.push_back(after_sent(prev_up[sw]));
                    up[sw] = prev_up[sw] = send(*it, parent, deps, false);
                }
                for (int sw : t.top_down) {  // the root's sum multicast down the tree
                    for (int c : t.children.at(sw)) {
                        const auto uc = static_cast<std::size_t>(c);
                        std::vector<StepId> deps{have[static_cast<std::size_t>(sw)]};
                        if (prev_down[uc] != kNoStep) deps.push_back(after_sent(prev_down[uc]));
                        prev_down[uc] = send(sw, c, deps, false);
                        const StepId got = s.receive(StepKind::copy, prev_down[uc], chunk(l, j));
                        if (c < n) back[uc][static_cast<std::size_t>(j)] = got;
                        else have[uc] = got;
                    }
                }
            }
        }
        // 3. Direct all-gather inside each server.
        for (const auto& node : comm.nodes)
            for (int l = 0; l < p; ++l)
                for (int b = 0; b < p; ++b)
                    for (int j = 0; j < k && b != l; ++j) {
                        const int src = node[static_cast<std::size_t>(l)];
                        const StepId sent = s.send(src, node[static_cast<std::size_t>(b)], ch, chunk(l, j), bytes(l, j),
                                                   {back[static_cast<std::size_t>(src)][static_cast<std::size_t>(j)]});
                        s.receive(StepKind::copy, sent, chunk(l, j));
                    }
    }
    return s;
}

Estimate collnet_estimate(const CollectiveCall& call, CostModel& m) {
    const CommLayout& comm = m.comm();
    const int channels = call.channels, p = *comm.ranks_per_node(), k = collnet_chunks(call, p);
    const Bytes block = largest_piece(largest_piece(call.bytes, channels), p);
    const Bytes b = largest_piece(block, k);
    Estimate t = m.launch(), gather_part;
    if (p > 1) {  // the direct phases: every rank's p-1 blocks through its links at once
        auto direct = [&](Bytes bytes) {
            std::vector<Transfer> all;
            for (const auto& node : comm.nodes)
                for (int x = 0; x < p; ++x)
                    for (int y = 0; y < p; ++y)
                        for (int ch = 0; ch < channels && x != y; ++ch)
                            all.push_back(Transfer{comm.gpus[static_cast<std::size_t>(node[static_cast<std::size_t>(x)])],
                                                   comm.gpus[static_cast<std::size_t>(node[static_cast<std::size_t>(y)])],
                                                   bytes, ch});
            return m.concurrent(all);
        };
        t += direct(block) + m.reduce_steps(comm.gpus[0], b, p - 1, channels);
        // The all-gather of chunk j starts as chunk j comes back from the
        // network, so only the last chunk's shows, unless it is the slower pipe.
        gather_part = direct(b);
    }
    // The network phase: one chunk round of every rail and channel shares the links.
    Routes& routes = m.routes();
    std::vector<Transfer> round;
    std::vector<std::vector<DeviceId>> paths;  // per GPU (channel 0): its way up to the root
    for (int l = 0; l < p; ++l) {
        const std::vector<DeviceId> rail = rail_gpus(comm, l);
        const SharpTree tree = *sharp_tree(*comm.topo, routes, rail);
        std::map<DeviceId, DeviceId> parent(tree.up.begin(), tree.up.end());
        for (int ch = 0; ch < channels; ++ch)
            for (std::size_t i = 0; i < rail.size(); ++i) {
                std::vector<DeviceId> way{rail[i], tree.parent_of_gpu[i]};
                while (way.back() != tree.root) way.push_back(parent.at(way.back()));
                for (std::size_t h = 0; h + 1 < way.size(); ++h) {
                    round.push_back(Transfer{way[h], way[h + 1], b, ch});
                    round.push_back(Transfer{way[h + 1], way[h], b, ch});
                }
                if (ch == 0) paths.push_back(way);
            }
    }
    // Switch-to-switch hops appear once per GPU below them here; a tree
    // carries each once, so count each distinct transfer once.
    std::map<std::tuple<DeviceId, DeviceId, int>, Transfer> distinct;
    for (const Transfer& x : round) distinct.emplace(std::make_tuple(x.from, x.to, x.channel), x);
    std::vector<Transfer> once;
    for (const auto& [key, x] : distinct) once.push_back(x);
    const std::vector<Estimate> each = m.concurrent_each(once);
    std::map<std::tuple<DeviceId, DeviceId, int>, Estimate> cost;
    Time period{};
    for (std::size_t i = 0; i < once.size(); ++i) {
        cost[std::make_tuple(once[i].from, once[i].to, once[i].channel)] = each[i];
        period = std::max(period, each[i].bandwidth);
    }
    // Only a GPU's send into the tree pays the protocol's network step.
    auto quiet = [&](Estimate e, DeviceId from, DeviceId to) {
        const Path& p = m.path(from, to, 0);
        e.latency = e.latency - step_latency(p, m.protocol(), true) + p.latency;
        return e;
    };
    Estimate trip;
    for (const auto& way : paths) {
        Estimate e;
        for (std::size_t h = 0; h + 1 < way.size(); ++h) {
            const Estimate upward = cost.at(std::make_tuple(way[h], way[h + 1], 0));
            e += h == 0 ? upward : quiet(upward, way[h], way[h + 1]);
            e += quiet(cost.at(std::make_tuple(way[h + 1], way[h], 0)), way[h + 1], way[h]);
        }
        trip = slower(trip, e);
    }
    period = std::max(period, gather_part.bandwidth);
    return t + trip + Estimate{Time{}, period * (k - 1)} + gather_part;
}

}  // namespace

AlgorithmInfo collnet_algorithm() {
    return AlgorithmInfo{"collnet",
                         "CollNet/SHARP AllReduce: direct reduce-scatter in servers, in-network reduction across "
                         "them on every rail, direct all-gather",
                         {CollOp::allreduce},
                         NcclFamily::collnet_direct,
                         "NCCL's CollNet Direct",
                         collnet_requirement,
                         collnet_schedule,
                         collnet_estimate,
                         "NCCL_COLLNET_ENABLE=1"};
}

}  // namespace collsim
