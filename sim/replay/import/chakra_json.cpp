#include "sim/replay/import/chakra_json.hpp"

#include <map>
#include <queue>

#include <fmt/format.h>

#include "sim/core/time.hpp"
#include "sim/replay/import/nccl_kernel.hpp"

namespace collsim {

namespace {
using nlohmann::json;

enum NodeType { comp = 4, send = 5, recv = 6, coll = 7 };

[[noreturn]] void bad(const std::string& file, const std::string& field, std::string expected, const json& found) {
    throw InputError(SourceLocation{file, 0, 0}, field, std::move(expected), found.is_null() ? "nothing" : found.dump());
}

uint64_t unsigned_field(const json& node, const char* key, const std::string& file, const std::string& path) {
    const json& v = node.contains(key) ? node[key] : json();
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
        bad(file, path + "." + key, "an integer that is not negative", v);
    return v.get<uint64_t>();
}

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
std::vector<std::size_t> dependency_order(const std::vector<uint64_t>& ids,
                                          const std::vector<std::vector<std::size_t>>& deps, const std::string& file) {
    const std::size_t n = ids.size();
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
        if (waiting[i] == 0) ready.push({ids[i], i});
    std::vector<std::size_t> order;
    while (!ready.empty()) {
        const std::size_t i = ready.top().second;
        ready.pop();
        order.push_back(i);
        for (std::size_t j : next[i])
            if (--waiting[j] == 0) ready.push({ids[j], j});
    }
    if (order.size() != n) throw InputError(SourceLocation{file, 0, 0}, "workload_graph", "data_deps without cycles",
                                            fmt::format("a cycle among {} nodes", n - order.size()));
    return order;
}
}  // namespace

bool is_chakra_json(const json& doc) { return doc.is_object() && doc.contains("workload_graph"); }

ImportedProgram import_chakra_rank(const json& doc, const std::string& file, int rank) {
    const json& nodes = doc["workload_graph"];
    if (!nodes.is_array()) bad(file, "workload_graph", "a list of nodes", nodes);
    ImportedProgram out;
    out.rank = rank;
    out.world = doc.contains("ngpus") && doc["ngpus"].is_number_integer() ? doc["ngpus"].get<int>() : 1;
    out.streams = {"cpu", "compute", "comm"};
    out.comms = {ImportedComm{"world", {}}};
    std::vector<uint64_t> ids;
    std::map<uint64_t, std::size_t> index;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const std::string path = fmt::format("workload_graph[{}]", i);
        if (!nodes[i].is_object()) bad(file, path, "a node", nodes[i]);
        ids.push_back(unsigned_field(nodes[i], "Id", file, path));
        if (!index.emplace(ids.back(), i).second) bad(file, path + ".Id", "an Id no other node has", nodes[i]["Id"]);
    }
    std::vector<std::vector<std::size_t>> deps(nodes.size());
    std::size_t dropped = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const json& d = nodes[i].contains("data_deps") ? nodes[i]["data_deps"] : json::array();
        if (!d.is_array()) bad(file, fmt::format("workload_graph[{}].data_deps", i), "a list of node Ids", d);
        for (const json& id : d) {
            auto it = id.is_number_unsigned() ? index.find(id.get<uint64_t>()) : index.end();
            if (it == index.end()) ++dropped;
            else if (it->second != i) deps[i].push_back(it->second);
        }
    }
    if (dropped > 0)
        out.notes.push_back(fmt::format("{}: {} data_deps name nodes that are not in the file; they were left out",
                                        file, dropped));
    const std::vector<std::size_t> order = dependency_order(ids, deps, file);
    std::vector<OpIndex> op_of(nodes.size());
    int measured = 0, others = 0;
    for (std::size_t i : order) {
        const json& n = nodes[i];
        const std::string path = fmt::format("workload_graph[{}]", i);
        TraceOp op;
        op.name = short_op_name(n.value("Name", std::string("node")), ids[i]);
        op.where = SourceLocation{file, 0, 0};
        const uint64_t type = unsigned_field(n, "NodeType", file, path);
        const bool cpu = n.value("is_cpu_op", false);
        const uint64_t runtime_us = n.contains("runtime") ? unsigned_field(n, "runtime", file, path) : 0;
        if (runtime_us > static_cast<uint64_t>(kClockLimitUs)) bad(file, path + ".runtime", "a runtime in microseconds within 106 days", n["runtime"]);
        const Time runtime = Time::from_ps(static_cast<int64_t>(runtime_us) * 1'000'000);
        if (cpu || type == comp || (type != send && type != recv && type != coll)) {
            others += !cpu && type != comp;
            op.kind = OpKind::compute;
            op.stream = cpu ? 0 : 1;
            op.compute.duration = runtime;
            op.compute.host = cpu;
        } else if (type == coll) {
            op.kind = OpKind::collective;
            op.stream = 2;
            auto kernel = parse_nccl_kernel(n.value("Name", std::string()));
            std::optional<CollOp> kind;
            if (n.contains("comm_type")) {
                kind = chakra_coll(unsigned_field(n, "comm_type", file, path));
                if (!kind)
                    bad(file, path + ".comm_type",
                        "a collective collsim runs: 0 ALL_REDUCE, 1 REDUCE, 2 ALL_GATHER, 5 BROADCAST, 6 ALL_TO_ALL, "
                        "7 REDUCE_SCATTER",
                        n["comm_type"]);
            } else if (kernel && kernel->op != CollOp::sendrecv) {
                kind = kernel->op;
            } else {
                bad(file, path + ".comm_type", "a comm_type, or a Name that is an NCCL collective kernel",
                    n.value("Name", json()));
            }
            op.collective.op = *kind;
            op.collective.comm = 0;
            if (kernel && !kernel->dtype.empty()) op.collective.dtype = kernel->dtype;
            op.collective.measured = runtime;
            if (n.contains("comm_size")) {
                op.collective.bytes = Bytes(static_cast<int64_t>(unsigned_field(n, "comm_size", file, path)));
            } else {
                op.collective.duration = runtime;
                ++measured;
            }
        } else {
            op.kind = type == send ? OpKind::send : OpKind::recv;
            op.stream = 2;
            const char* peer = type == send ? "comm_dst" : "comm_src";
            op.p2p.peer = static_cast<int>(unsigned_field(n, peer, file, path));
            op.p2p.bytes = Bytes(static_cast<int64_t>(unsigned_field(n, "comm_size", file, path)));
        }
        for (std::size_t d : deps[i]) op.after.push_back(op_of[d]);
        op_of[i] = static_cast<OpIndex>(out.program.ops.size());
        out.program.ops.push_back(std::move(op));
    }
    if (measured > 0)
        out.notes.push_back(fmt::format("{}: {} collectives have no comm_size; they keep their measured runtime",
                                        file, measured));
    if (others > 0)
        out.notes.push_back(fmt::format("{}: {} GPU nodes of other types run as compute for their runtime", file,
                                        others));
    return out;
}

}  // namespace collsim
