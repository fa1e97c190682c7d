#include "sim/replay/import/chakra_graph.hpp"

#include <algorithm>
#include <map>
#include <queue>

#include <fmt/format.h>

#include "sim/core/time.hpp"
#include "sim/replay/import/nccl_kernel.hpp"

namespace collsim {

namespace {
// et_def.proto's NodeType values.
enum ChakraType : uint64_t { metadata = 1, mem_load = 2, mem_store = 3, comp = 4, send = 5, recv = 6, coll = 7 };
enum ChakraStream : uint32_t { cpu_stream, compute_stream, comm_stream, send_stream };

[[noreturn]] void refuse(const ChakraGraph& g, const ChakraNode& n, const std::string& field, std::string expected,
                         const std::optional<uint64_t>& found) {
    throw InputError(SourceLocation{g.file, 0, 0}, n.where + "." + field, std::move(expected),
                     found ? std::to_string(*found) : "nothing");
}

uint64_t required(const ChakraGraph& g, const ChakraNode& n, const char* field, const std::optional<uint64_t>& v) {
    if (!v) refuse(g, n, field, "an integer that is not negative", v);
    return *v;
}

// et_def.proto's CollectiveCommType, where collsim has the collective.
std::optional<CollOp> chakra_coll(uint64_t t) {
    switch (t) {
        case 0: return CollOp::allreduce;
        case 1: return CollOp::reduce;
        case 2: return CollOp::allgather;
        case 5: return CollOp::broadcast;
        case 6: return CollOp::alltoall;
        case 7: return CollOp::reducescatter;
        default: return std::nullopt;
    }
}

// Node indices in an order that respects data_deps, smallest Id first among
// the ready ones (the trace's own order where it is consistent).
std::vector<std::size_t> dependency_order(const ChakraGraph& g, const std::vector<std::vector<std::size_t>>& deps,
                                          const std::string& list) {
    const std::size_t n = g.nodes.size();
    std::vector<std::vector<std::size_t>> next(n);
    std::vector<std::size_t> waiting(n, 0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t d : deps[i]) {
            next[d].push_back(i);
            ++waiting[i];
        }
    using Item = std::pair<uint64_t, std::size_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
    for (std::size_t i = 0; i < n; ++i)
        if (waiting[i] == 0) ready.push({g.nodes[i].id, i});
    std::vector<std::size_t> order;
    while (!ready.empty()) {
        const std::size_t i = ready.top().second;
        ready.pop();
        order.push_back(i);
        for (std::size_t j : next[i])
            if (--waiting[j] == 0) ready.push({g.nodes[j].id, j});
    }
    if (order.size() != n)
        throw InputError(SourceLocation{g.file, 0, 0}, list, "data_deps without cycles",
                         fmt::format("a cycle among {} nodes", n - order.size()));
    return order;
}

TraceOp collective_op(const ChakraGraph& g, const ChakraNode& n, Time runtime, int& measured) {
    TraceOp op;
    op.kind = OpKind::collective;
    op.stream = comm_stream;
    const auto kernel = parse_nccl_kernel(n.name);
    std::optional<CollOp> kind;
    if (n.comm_type) {
        kind = chakra_coll(*n.comm_type);
        if (!kind)
            refuse(g, n, "comm_type",
                   "a collective collsim runs: 0 ALL_REDUCE, 1 REDUCE, 2 ALL_GATHER, 5 BROADCAST, 6 ALL_TO_ALL, "
                   "7 REDUCE_SCATTER",
                   n.comm_type);
    } else if (kernel && kernel->op != CollOp::sendrecv) {
        kind = kernel->op;
    } else {
        throw InputError(SourceLocation{g.file, 0, 0}, n.where + ".comm_type",
                         "a comm_type, or a Name that is an NCCL collective kernel", "'" + n.name + "'");
    }
    op.collective.op = *kind;
    op.collective.comm = 0;
    if (kernel && !kernel->dtype.empty()) op.collective.dtype = kernel->dtype;
    op.collective.measured = runtime;
    if (n.comm_size) {
        op.collective.bytes = Bytes(static_cast<int64_t>(*n.comm_size));
    } else {
        op.collective.duration = runtime;
        ++measured;
    }
    return op;
}
}  // namespace

ImportedProgram chakra_program(const ChakraGraph& g, int rank) {
    ImportedProgram out;
    out.rank = rank;
    out.world = g.world.value_or(1);
    out.streams = {"cpu", "compute", "comm", "send"};
    out.comms = {ImportedComm{"world", {}}};
    std::map<uint64_t, std::size_t> index;
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (!index.emplace(g.nodes[i].id, i).second)
            refuse(g, g.nodes[i], g.id_field, "an Id no other node has", g.nodes[i].id);
    std::vector<std::vector<std::size_t>> deps(g.nodes.size());
    std::size_t dropped = 0;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        dropped += g.nodes[i].unnamed_deps;
        for (uint64_t id : g.nodes[i].data_deps) {
            const auto it = index.find(id);
            if (it == index.end()) ++dropped;
            else if (it->second != i) deps[i].push_back(it->second);
        }
    }
    if (dropped > 0)
        out.notes.push_back(fmt::format("{}: {} data_deps name nodes that are not in the file; they were left out",
                                        g.file, dropped));
    const std::vector<std::size_t> order = dependency_order(g, deps, g.list);
    // What an op after node i waits for: the node itself, or for an eager
    // send what the send waited for.
    std::vector<std::vector<OpIndex>> wait_for(g.nodes.size());
    int measured = 0, others = 0, eager = 0;
    for (std::size_t i : order) {
        const ChakraNode& n = g.nodes[i];
        if (n.type < metadata || n.type > coll)
            refuse(g, n, g.type_field,
                   "a " + g.format + " node type: 1 METADATA, 2 MEM_LOAD, 3 MEM_STORE, 4 COMP, 5 COMM_SEND, "
                   "6 COMM_RECV, 7 COMM_COLL",
                   n.type);
        if (n.duration_us > static_cast<uint64_t>(kClockLimitUs))
            refuse(g, n, g.runtime_field,
                   "a runtime in microseconds within 106 days", n.duration_us);
        const Time runtime = Time::from_ps(static_cast<int64_t>(n.duration_us) * 1'000'000);
        TraceOp op;
        if (n.is_cpu_op || n.type < send) {
            others += !n.is_cpu_op && n.type != comp;
            op.kind = OpKind::compute;
            op.stream = n.is_cpu_op ? cpu_stream : compute_stream;
            op.compute.duration = runtime;
            op.compute.host = n.is_cpu_op;
        } else if (n.type == coll) {
            op = collective_op(g, n, runtime, measured);
        } else {
            const bool is_send = n.type == send;
            op.kind = is_send ? OpKind::send : OpKind::recv;
            op.stream = is_send ? send_stream : comm_stream;
            op.p2p.peer = static_cast<int>(required(g, n, is_send ? "comm_dst" : "comm_src",
                                                    is_send ? n.comm_dst : n.comm_src));
            op.p2p.bytes = Bytes(static_cast<int64_t>(required(g, n, "comm_size", n.comm_size)));
            eager += is_send;
        }
        op.name = short_op_name(n.name.empty() ? "node" : n.name, n.id);
        op.where = n.at;
        for (std::size_t d : deps[i]) op.after.insert(op.after.end(), wait_for[d].begin(), wait_for[d].end());
        std::sort(op.after.begin(), op.after.end());
        op.after.erase(std::unique(op.after.begin(), op.after.end()), op.after.end());
        const auto index_of_op = static_cast<OpIndex>(out.program.ops.size());
        wait_for[i] = op.kind == OpKind::send ? op.after : std::vector<OpIndex>{index_of_op};
        out.program.ops.push_back(std::move(op));
    }
    if (measured > 0)
        out.notes.push_back(fmt::format("{}: {} collectives have no comm_size; they keep their measured runtime",
                                        g.file, measured));
    if (others > 0)
        out.notes.push_back(fmt::format("{}: {} GPU nodes of other types run as compute for their runtime", g.file,
                                        others));
    if (eager > 0)
        out.notes.push_back(fmt::format("{}: {} sends are eager, as ASTRA-sim runs Chakra: the nodes after a send "
                                        "do not wait for its delivery",
                                        g.file, eager));
    return out;
}

}  // namespace collsim
