#include "sim/replay/import/pytorch_et.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sim/core/json_input.hpp"
#include "sim/core/json_places.hpp"
#include "sim/core/time.hpp"

namespace collsim {

namespace {
using nlohmann::json;

[[noreturn]] void bad_et(const std::string& file, const std::string& field, std::string expected, const json& found) {
    throw InputError(SourceLocation{file, 0, 0}, field, std::move(expected), found.is_null() ? "nothing" : found.dump());
}

// The two layouts of a node's inputs: "inputs": [...] with "input_types"
// (schema 1.0.1), or "inputs": {"values": [...], "types": [...]}.
const json& et_values(const json& n) {
    static const json none = json::array();
    if (!n.contains("inputs")) return none;
    const json& in = n["inputs"];
    if (in.is_object()) return in.contains("values") ? in["values"] : none;
    return in;
}

std::string et_values_path(const json& n, const std::string& path) {
    return path + (n.contains("inputs") && n["inputs"].is_object() ? ".inputs.values" : ".inputs");
}

const json& et_types(const json& n) {
    static const json none = json::array();
    if (n.contains("input_types")) return n["input_types"];
    if (n.contains("inputs") && n["inputs"].is_object() && n["inputs"].contains("types")) return n["inputs"]["types"];
    return none;
}

// tid and the like: a key of the node (1.0.1) or an entry of its "attrs".
std::optional<uint64_t> et_attr(const json& n, const char* key) {
    const json* v = n.contains(key) ? &n[key] : nullptr;
    if (!v && n.contains("attrs") && n["attrs"].is_array())
        for (const json& a : n["attrs"])
            if (a.is_object() && a.value("name", "") == key && a.contains("value")) v = &a["value"];
    if (!v || !v->is_number_integer() || v->get<int64_t>() < 0) return std::nullopt;
    return v->get<uint64_t>();
}

bool is_tensor(const json& v) {
    return v.is_array() && v.size() == 6 && v[3].is_number_integer() && v[4].is_number_integer() && v[5].is_string();
}

// Bytes of every tensor in `v` (a tensor, or lists of them).
int64_t tensor_bytes(const json& v) {
    if (is_tensor(v)) return std::max<int64_t>(0, v[3].get<int64_t>()) * std::max<int64_t>(0, v[4].get<int64_t>());
    int64_t sum = 0;
    if (v.is_array())
        for (const json& e : v) sum += tensor_bytes(e);
    return sum;
}

// "Tensor(float)", "GenericList[Tensor(c10::BFloat16)]" -> the dtype name collsim uses.
std::string et_dtype(const json& type) {
    if (!type.is_string()) return "";
    const std::string t = type.get<std::string>();
    static const std::pair<const char*, const char*> names[] = {
        {"Tensor(float)", "float"},      {"Tensor(c10::BFloat16)", "bfloat16"}, {"Tensor(c10::Half)", "half"},
        {"Tensor(double)", "double"},    {"Tensor(long int)", "int64"},          {"Tensor(int)", "int32"},
        {"Tensor(signed char)", "int8"}, {"Tensor(unsigned char)", "uint8"}};
    for (const auto& [k, v] : names)
        if (t.find(k) != std::string::npos) return v;
    return "";
}

// How a c10d::* or nccl:* call is a collective: which input holds the
// buffer nccl-tests sizes it by, whether that input is one rank's block
// (nccl:all_gather's), and where the root and the all-to-all splits are.
struct EtCollective {
    CollOp op;
    std::size_t buffer = 0;
    bool per_rank = false;
    int root = -1, splits = -1;
};

std::optional<EtCollective> et_collective(const std::string& name) {
    const bool c10d = name.starts_with("c10d::");
    if (!c10d && !name.starts_with("nccl:")) return std::nullopt;
    std::string k;
    for (char c : name.substr(c10d ? 6 : 5))
        if (c != '_') k += c;
    auto is = [&](std::initializer_list<const char*> names) {
        return std::any_of(names.begin(), names.end(), [&](const char* n) { return k == n; });
    };
    // c10d's signatures (torch/csrc/distributed/c10d/Ops.cpp): allgather and
    // alltoall take (outputs, inputs, ...), reduce_scatter (outputs, inputs, ...).
    if (is({"allreduce", "allreducecoalesced"})) return EtCollective{CollOp::allreduce};
    if (is({"allgather", "allgatherbase", "allgatherintotensorcoalesced"}))
        return EtCollective{CollOp::allgather, 0, !c10d};
    if (is({"reducescatter", "reducescatterbase", "reducescattertensorcoalesced"}))
        return EtCollective{CollOp::reducescatter, c10d ? 1u : 0u};
    if (is({"broadcast"})) return EtCollective{CollOp::broadcast, 0, false, c10d ? 2 : -1};
    if (is({"reduce"})) return EtCollective{CollOp::reduce, 0, false, c10d ? 3 : -1};
    if (is({"alltoall", "alltoallbase", "alltoallv"}))
        return EtCollective{CollOp::alltoall, c10d ? 1u : 0u, false, -1, k == "alltoallbase" ? 4 : -1};
    return std::nullopt;
}

bool is_comm_call(const std::string& name) { return name.starts_with("c10d::") || name.starts_with("nccl:"); }

struct EtTree {
    std::vector<std::vector<std::size_t>> children;
    std::vector<bool> comm_below;  // a c10d::* or nccl:* call in the node's subtree
    std::vector<std::size_t> roots;
};

class PytorchEtReader {
public:
    PytorchEtReader(const json& nodes, std::vector<SourceLocation> places, const std::string& file, int rank)
        : nodes_(nodes), places_(std::move(places)), file_(file) {
        out_.rank = rank;
        out_.streams = {"comm"};
        out_.comms = {ImportedComm{"world", {}}};
    }

    ImportedProgram read() {
        const EtTree tree = build_tree();
        for (std::size_t r : tree.roots) walk(tree, r);
        if (no_duration_ > 0)
            out_.notes.push_back(fmt::format("{}: CPU ops with no duration (an execution trace not linked with "
                                             "its Kineto trace): {}; they take no time",
                                             file_, no_duration_));
        if (skipped_ > 0)
            out_.notes.push_back(fmt::format("{}: {} communication calls are not collectives collsim runs "
                                             "(send, recv, gather, scatter, barrier); they were left out",
                                             file_, skipped_));
        if (!world_)
            out_.notes.push_back(fmt::format("{}: no ## process_group:init ## node: the job's ranks are the rank files "
                                             "given, each collective over all of them",
                                             file_));
        out_.world = world_.value_or(1);
        return std::move(out_);
    }

private:
    std::string path(std::size_t i) const { return fmt::format("nodes[{}]", i); }
    std::string name(std::size_t i) const { return nodes_[i].value("name", std::string()); }

    EtTree build_tree() {
        std::map<uint64_t, std::size_t> index;
        std::vector<uint64_t> ids(nodes_.size());
        for (std::size_t i = 0; i < nodes_.size(); ++i) {
            const json& n = nodes_[i];
            if (!n.is_object()) bad_et(file_, path(i), "a node", n);
            if (!n.contains("id") || !n["id"].is_number_unsigned())
                bad_et(file_, path(i) + ".id", "an integer that is not negative", n.value("id", json()));
            if (!n.contains("name") || !n["name"].is_string())
                bad_et(file_, path(i) + ".name", "a string", n.value("name", json()));
            ids[i] = n["id"].get<uint64_t>();
            if (!index.emplace(ids[i], i).second) bad_et(file_, path(i) + ".id", "an id no other node has", n["id"]);
            if (name(i) == "## process_group:init ##") read_process_groups(i);
        }
        EtTree t;
        t.children.resize(nodes_.size());
        t.comm_below.assign(nodes_.size(), false);
        std::vector<std::optional<std::size_t>> parent(nodes_.size());
        for (std::size_t i = 0; i < nodes_.size(); ++i) {
            const std::optional<uint64_t> p = et_attr(nodes_[i], "parent").has_value() ? et_attr(nodes_[i], "parent")
                                                                                     : et_attr(nodes_[i], "ctrl_deps");
            const auto it = p ? index.find(*p) : index.end();
            if (it != index.end() && it->second != i) {
                parent[i] = it->second;
                t.children[it->second].push_back(i);
            } else {
                t.roots.push_back(i);
            }
        }
        for (std::size_t i = 0; i < nodes_.size(); ++i)
            if (is_comm_call(name(i)))  // marks its ancestors, stopping at one already marked
                for (std::optional<std::size_t> a = i; a && !t.comm_below[*a]; a = parent[*a]) t.comm_below[*a] = true;
        auto by_id = [&](std::size_t a, std::size_t b) { return ids[a] < ids[b]; };
        for (auto& c : t.children) std::sort(c.begin(), c.end(), by_id);
        std::sort(t.roots.begin(), t.roots.end(), by_id);
        return t;
    }

    void read_process_groups(std::size_t i) {
        const json& values = et_values(nodes_[i]);
        const std::string where = et_values_path(nodes_[i], path(i)) + "[0]";
        const json pgs = values.empty() || !values[0].is_string() ? json()
                                                                    : parse_embedded_json(values[0].get<std::string>());
        if (!pgs.is_array()) bad_et(file_, where, "a JSON list of process groups (pg_name, ranks)", values.empty() ? json() : values[0]);
        for (const json& pg : pgs) {
            if (!pg.is_object() || !pg.contains("pg_name") || !pg["pg_name"].is_string())
                bad_et(file_, where, "process groups with a pg_name", pg);
            std::vector<int> ranks;
            if (pg.contains("ranks") && pg["ranks"].is_array())
                for (const json& r : pg["ranks"]) {
                    if (!r.is_number_integer() || r.get<int64_t>() < 0 || r.get<int64_t>() > INT32_MAX)
                        bad_et(file_, where, "ranks that are integers that are not negative", r);
                    ranks.push_back(r.get<int>());
                }
            std::sort(ranks.begin(), ranks.end());
            const std::string pg_name = pg["pg_name"].get<std::string>();
            if (pg.value("pg_desc", "") == "default_pg" || pg_name == "0")
                world_ = pg.contains("pg_size") && pg["pg_size"].is_number_integer() ? pg["pg_size"].get<int>()
                                                                                      : static_cast<int>(ranks.size());
            groups_[pg_name] = std::move(ranks);
        }
    }

    // The communicator a collective names through a record_param_comms below it.
    uint32_t communicator(const EtTree& t, std::size_t i) {
        for (std::size_t c : t.children[i]) {
            if (name(c) != "record_param_comms") continue;
            for (const json& v : et_values(nodes_[c])) {
                const json& s = v.is_array() && !v.empty() ? v[0] : v;
                if (!s.is_string() || !groups_.contains(s.get<std::string>())) continue;
                const std::string pg = "pg " + s.get<std::string>();
                for (std::size_t k = 0; k < out_.comms.size(); ++k)
                    if (out_.comms[k].name == pg) return static_cast<uint32_t>(k);
                out_.comms.push_back(ImportedComm{pg, groups_[s.get<std::string>()]});
                return static_cast<uint32_t>(out_.comms.size() - 1);
            }
        }
        return 0;
    }

    uint32_t thread_stream(const json& n) {
        const std::string s = fmt::format("cpu {}", et_attr(n, "tid").value_or(0));
        const auto it = std::find(out_.streams.begin(), out_.streams.end(), s);
        if (it != out_.streams.end()) return static_cast<uint32_t>(it - out_.streams.begin());
        out_.streams.push_back(s);
        return static_cast<uint32_t>(out_.streams.size() - 1);
    }

    void walk(const EtTree& t, std::size_t i) {
        const std::string n = name(i);
        if (n.starts_with("[pytorch|profiler|") || (t.comm_below[i] && !is_comm_call(n))) {
            for (std::size_t c : t.children[i]) walk(t, c);
            return;
        }
        if (n == "## process_group:init ##") return;
        const uint32_t stream = thread_stream(nodes_[i]);
        TraceOp op;
        op.name = short_op_name(n, nodes_[i]["id"].get<uint64_t>());
        op.where = places_[i];
        if (const auto last = last_on_.find(stream); last != last_on_.end()) op.after.push_back(last->second);
        if (is_comm_call(n)) {
            const auto c = et_collective(n);
            if (!c) {
                ++skipped_;
                return;
            }
            collective(t, i, *c, op);
        } else {
            op.kind = OpKind::compute;
            op.stream = stream;
            op.compute.host = true;
            op.compute.duration = duration(i);
        }
        const auto index = static_cast<OpIndex>(out_.program.ops.size());
        if (op.kind == OpKind::compute) last_on_[stream] = index;
        out_.program.ops.push_back(std::move(op));
    }

    Time duration(std::size_t i) {
        for (const char* key : {"dur", "inclusive_dur"}) {
            const json& n = nodes_[i];
            if (!n.contains(key)) continue;
            if (!n[key].is_number() || n[key].get<double>() < 0 || n[key].get<double>() > kClockLimitUs)
                bad_et(file_, path(i) + "." + key, "a duration in microseconds within 106 days", n[key]);
            return Time::from_ps(static_cast<int64_t>(n[key].get<double>() * 1e6 + 0.5));
        }
        ++no_duration_;
        return Time{};
    }

    void collective(const EtTree& t, std::size_t i, const EtCollective& c, TraceOp& op) {
        const json& values = et_values(nodes_[i]);
        const std::string where = et_values_path(nodes_[i], path(i));
        if (values.size() <= c.buffer || tensor_bytes(values[c.buffer]) == 0)
            bad_et(file_, fmt::format("{}[{}]", where, c.buffer), "the tensors of the collective (numel, elem_bytes)",
                   values.size() <= c.buffer ? json() : values[c.buffer]);
        op.kind = OpKind::collective;
        op.stream = 0;
        op.collective.op = c.op;
        op.collective.comm = communicator(t, i);
        const ImportedComm& comm = out_.comms[op.collective.comm];
        const int64_t members = comm.group.empty() ? world_.value_or(1) : static_cast<int64_t>(comm.group.size());
        const int64_t bytes = tensor_bytes(values[c.buffer]);
        op.collective.bytes = Bytes(c.per_rank ? bytes * members : bytes);
        const json& types = et_types(nodes_[i]);
        if (types.size() > c.buffer && !et_dtype(types[c.buffer]).empty()) op.collective.dtype = et_dtype(types[c.buffer]);
        if (c.root >= 0 && values.size() > static_cast<std::size_t>(c.root) && values[c.root].is_number_integer())
            op.collective.root = values[c.root].get<int>();
        if (c.splits >= 0 && values.size() > static_cast<std::size_t>(c.splits)) split(values[c.splits], bytes, op);
    }

    // All-to-all with input_split_sizes (rows of the input, each member's
    // share): kept even where they are equal, since another rank's may not be
    // (the replay then checks only that the ranks agree on the operation) and
    // c10d runs a split all-to-all as grouped sends either way.
    void split(const json& rows, int64_t bytes, TraceOp& op) {
        if (!rows.is_array() || rows.empty()) return;
        int64_t total = 0;
        for (const json& r : rows) total += r.is_number_integer() ? std::max<int64_t>(0, r.get<int64_t>()) : 0;
        if (total == 0) return;
        for (const json& r : rows)
            op.collective.split.push_back(Bytes(bytes * (r.is_number_integer() ? r.get<int64_t>() : 0) / total));
    }

    const json& nodes_;
    std::vector<SourceLocation> places_;  // of each node in the text
    const std::string& file_;
    ImportedProgram out_;
    std::map<std::string, std::vector<int>> groups_;
    std::optional<int> world_;
    std::map<uint32_t, OpIndex> last_on_;  // stream -> its last CPU op
    int no_duration_ = 0, skipped_ = 0;
};
}  // namespace

bool is_pytorch_et(const json& doc) {
    return doc.is_object() && doc.contains("schema") && doc["schema"].is_string() && doc.contains("nodes");
}

ImportedProgram import_pytorch_et_rank(const json& doc, const std::string& text, const std::string& file, int rank) {
    const json& nodes = doc["nodes"];
    if (!nodes.is_array()) bad_et(file, "nodes", "a list of nodes (a PyTorch execution trace)", nodes);
    return PytorchEtReader(nodes, json_element_places(text, "nodes", file, nodes.size()), file, rank).read();
}

}  // namespace collsim
