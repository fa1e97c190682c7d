#include "sim/replay/import/kineto_comm.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <utility>

#include <fmt/format.h>

#include "sim/core/json_input.hpp"

namespace collsim {

namespace {
using nlohmann::json;

struct PyDtype {
    std::string_view pytorch;  // a c10::ScalarType name ("dtype") or a C++ type name ("Input type")
    std::string_view nccl;     // nccl-tests' name; "" where collsim has none
    int size;
};
// c10/core/ScalarType.h names both ways; the element sizes are the C++ types'.
constexpr std::array<PyDtype, 30> kPyDtypes{{
    {"Float", "float", 4},        {"float", "float", 4},           {"BFloat16", "bfloat16", 2},
    {"c10::BFloat16", "bfloat16", 2}, {"Half", "half", 2},         {"c10::Half", "half", 2},
    {"Double", "double", 8},      {"double", "double", 8},         {"Int", "int32", 4},
    {"int", "int32", 4},          {"Long", "int64", 8},            {"long int", "int64", 8},
    {"long", "int64", 8},         {"Char", "int8", 1},             {"signed char", "int8", 1},
    {"Byte", "uint8", 1},         {"unsigned char", "uint8", 1},   {"Short", "", 2},
    {"short int", "", 2},         {"short", "", 2},                {"Bool", "", 1},
    {"bool", "", 1},              {"Float8_e4m3fn", "", 1},        {"c10::Float8_e4m3fn", "", 1},
    {"Float8_e5m2", "", 1},       {"c10::Float8_e5m2", "", 1},     {"ComplexFloat", "", 8},
    {"c10::complex<float>", "", 8}, {"UInt32", "", 4},             {"UInt64", "", 8},
}};

const PyDtype* py_dtype(std::string_view name) {
    for (const PyDtype& d : kPyDtypes)
        if (d.pytorch == name) return &d;
    return nullptr;
}

// One place that may describe the call: the kernel's args or a launching op's.
struct Source {
    const json* args;
    std::string at;    // path of args
    std::string name;  // the op's name; "" for the kernel
};

class Reader {
public:
    explicit Reader(const KinetoFields& f) : f_(f) {}

    // Elements in one "Input Dims" entry: a tensor's dims ([8, 4]) or a
    // tensor list's ([[8, 4], [16]]); nullopt where it holds none.
    std::optional<int64_t> elements(const json& dims, const std::string& at) const {
        if (!dims.is_array()) f_.bad(at, "a list of dimensions", &dims);
        if (dims.empty()) return std::nullopt;
        __int128 total = 0;
        if (dims.front().is_array()) {
            for (std::size_t i = 0; i < dims.size(); ++i)
                if (auto n = elements(dims[i], fmt::format("{}[{}]", at, i))) total += *n;
        } else {
            total = 1;
            for (std::size_t i = 0; i < dims.size(); ++i) {
                if (!dims[i].is_number_integer() || dims[i].get<int64_t>() < 0)
                    f_.bad(fmt::format("{}[{}]", at, i), "a dimension, an integer that is not negative", &dims[i]);
                total *= dims[i].get<int64_t>();
                if (total > INT64_MAX / 16) f_.bad(at, "a tensor of fewer than 2^59 elements", &dims);
            }
        }
        if (total > INT64_MAX / 16) f_.bad(at, "a tensor list of fewer than 2^59 elements", &dims);
        return static_cast<int64_t>(total);
    }

    // Entry k of "Input Dims" and "Input type": its elements and dtype name.
    std::optional<std::pair<int64_t, std::string>> input(const Source& s, std::size_t k) const {
        const json* dims = f_.array(*s.args, "Input Dims", s.at);
        const json* types = f_.array(*s.args, "Input type", s.at);
        if (!dims || !types || dims->size() <= k || types->size() <= k) return std::nullopt;
        const std::string at = fmt::format("{}.Input type[{}]", s.at, k);
        if (!(*types)[k].is_string()) f_.bad(at, "a type name", &(*types)[k]);
        const auto n = elements((*dims)[k], fmt::format("{}.Input Dims[{}]", s.at, k));
        if (!n) return std::nullopt;
        return std::pair{*n, (*types)[k].get<std::string>()};
    }

    // "[0, 1, 2]" as PyTorch writes it (a string holding a list), or a list.
    // The profiler cuts lists past 30 entries to "[0, 1, ..., 29, ...]"
    // (kTruncatLength in torch/csrc/profiler/util.cpp): `cut` says so.
    struct IntList {
        std::vector<int64_t> values;
        bool cut = false;
    };
    std::optional<IntList> int_list(const Source& s, std::string_view key) const {
        const auto it = s.args->find(key);
        if (it == s.args->end() || it->is_null()) return std::nullopt;
        const std::string at = s.at + "." + std::string(key);
        IntList out;
        json list = *it;
        if (it->is_string()) {
            std::string text = it->get<std::string>();
            if (text.ends_with(", ...]")) {
                out.cut = true;
                text.replace(text.size() - 6, 6, "]");
            }
            list = parse_embedded_json(text);
        }
        if (!list.is_array()) f_.bad(at, "a list of integers, \"[0, 1]\"", &*it);
        for (const json& v : list) {
            if (!v.is_number_integer()) f_.bad(at, "a list of integers, \"[0, 1]\"", &*it);
            out.values.push_back(v.get<int64_t>());
        }
        return out;
    }

    const KinetoFields& f_;
};

std::string names_of(const std::vector<Source>& sources) {
    std::string out;
    for (const Source& s : sources)
        if (!s.name.empty()) out += (out.empty() ? "" : ", ") + s.name;
    return out;
}
}  // namespace

std::optional<CollOp> pytorch_collective(std::string name) {
    for (std::string_view prefix : {"c10d::", "nccl:"})
        if (name.starts_with(prefix)) name.erase(0, prefix.size());
    for (std::string_view part : {"_coalesced", "_into_tensor", "_tensor", "_base", "_single"})
        for (auto at = name.find(part); at != std::string::npos; at = name.find(part)) name.erase(at, part.size());
    std::erase(name, '_');
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    static const std::map<std::string, CollOp, std::less<>> ops{
        {"allreduce", CollOp::allreduce},         {"allgather", CollOp::allgather},
        {"reducescatter", CollOp::reducescatter}, {"alltoall", CollOp::alltoall},
        {"alltoallv", CollOp::alltoall},          {"broadcast", CollOp::broadcast},
        {"reduce", CollOp::reduce},               {"send", CollOp::sendrecv},
        {"recv", CollOp::sendrecv},               {"sendrecv", CollOp::sendrecv}};
    const auto it = ops.find(name);
    return it == ops.end() ? std::nullopt : std::optional<CollOp>(it->second);
}

KinetoCall kineto_call(const NcclKernel& kernel, const json* kernel_args, const std::string& kernel_at,
                       const std::vector<const KinetoSpan*>& launchers, bool launch_in_trace, const KinetoJob& job,
                       const KinetoFields& fields) {
    const Reader read(fields);
    std::vector<Source> sources;
    if (kernel_args) sources.push_back(Source{kernel_args, kernel_at + ".args", ""});
    for (const KinetoSpan* op : launchers)
        if (op->args) sources.push_back(Source{op->args, fmt::format("traceEvents[{}].args", op->event), op->name});
    KinetoCall call;
    call.op = kernel.op;
    call.dtype = kernel.dtype;
    // The collective: "Collective name", else the innermost launching op that names one.
    for (const Source& s : sources) {
        std::optional<CollOp> named;
        if (const auto cn = fields.string(*s.args, "Collective name", s.at)) named = pytorch_collective(*cn);
        if (!named && !s.name.empty()) named = pytorch_collective(s.name);
        if (!named) continue;
        call.op = *named;
        call.launcher = s.name.empty() ? "its \"Collective name\"" : s.name;
        call.op_differs = *named != kernel.op && !(kernel.op == CollOp::sendrecv && *named == CollOp::alltoall);
        break;
    }
    // The process group.
    std::optional<int64_t> group_size;
    for (const Source& s : sources) {
        if (!group_size) group_size = fields.integer(*s.args, "Group size", s.at);
        const auto pg = fields.string(*s.args, "Process Group Name", s.at);
        if (!pg || call.comm != "world") continue;
        call.comm = "pg " + *pg;
        // The whole list, else pg_config's, else the start and stride, else a cut list that strides evenly.
        std::vector<int64_t> ranks;
        const auto listed = read.int_list(s, "Process Group Ranks");
        const auto start = fields.integer(*s.args, "Global rank start", s.at);
        const auto stride = fields.integer(*s.args, "Global rank stride", s.at);
        auto progression = [&](int64_t first, int64_t step) {
            for (int64_t k = 0; k < *group_size; ++k) ranks.push_back(first + k * step);
        };
        const bool sized_group = group_size && *group_size > 0 && *group_size <= job.world;
        const auto& cut = listed ? listed->values : ranks;
        if (listed && !listed->cut) ranks = listed->values;
        else if (const auto g = job.groups.find(*pg); g != job.groups.end()) ranks.assign(g->second.begin(), g->second.end());
        else if (sized_group && start && stride && *start >= 0 && *stride >= 1) progression(*start, *stride);
        else if (sized_group && cut.size() >= 2 && cut[1] > cut[0] &&
                 std::adjacent_find(cut.begin(), cut.end(), [&](int64_t a, int64_t b) { return b - a != cut[1] - cut[0]; }) == cut.end())
            progression(cut[0], cut[1] - cut[0]);
        else if (listed && listed->cut) call.group_unknown = true;
        for (int64_t r : ranks) {
            if (r < 0 || r >= job.world)
                fields.bad(s.at + ".Process Group Ranks", fmt::format("ranks of the job's {}", job.world),
                           &(*s.args)["Process Group Ranks"]);
            call.group.push_back(static_cast<int>(r));
        }
        if (!call.group.empty() && std::find(call.group.begin(), call.group.end(), job.rank) == call.group.end())
            fields.bad(s.at + ".Process Group Ranks", fmt::format("a group that holds this trace's rank {}", job.rank),
                       s.args->contains("Process Group Ranks") ? &(*s.args)["Process Group Ranks"] : nullptr);
        std::sort(call.group.begin(), call.group.end());
    }
    if (!group_size) group_size = call.group.empty() ? job.world : static_cast<int64_t>(call.group.size());
    const char* unlaunched = "its launch is not in the trace (before the profiler started) and the kernel records "
                             "no size";
    if (call.op == CollOp::sendrecv) {
        call.unsized = launch_in_trace || !call.launcher.empty() ? "a send or receive: the trace names no peer"
                                                                 : unlaunched;
        return call;
    }
    auto sized = [&](int64_t elements, const std::string& type, const std::string& at, const json* found) {
        const PyDtype* d = py_dtype(type);
        if (!d) fields.bad(at, "a PyTorch dtype (Float, BFloat16, Half, Long, ...)", found);
        if (!d->nccl.empty()) call.dtype = std::string(d->nccl);
        call.bytes = Bytes(elements * d->size);
        return d->size;
    };
    // 1. Element counts ("In msg nelems"; AllGather's is its output).
    const char* key = call.op == CollOp::allgather ? "Out msg nelems" : "In msg nelems";
    for (const Source& s : sources) {
        const auto n = fields.integer(*s.args, key, s.at);
        const auto type = fields.string(*s.args, "dtype", s.at);
        if (!n || !type) continue;
        if (*n < 0 || *n > INT64_MAX / 16) fields.bad(s.at + "." + key, "a count of elements below 2^59", &(*s.args)[key]);
        const int size = sized(*n, *type, s.at + ".dtype", &(*s.args)["dtype"]);
        if (call.op == CollOp::alltoall) {
            if (auto split = read.int_list(s, "In split size"); split && split->cut)
                call.uneven_unknown = true;
            else if (split && !split->values.empty()) {
                if (static_cast<int64_t>(split->values.size()) != *group_size)
                    fields.bad(s.at + ".In split size", fmt::format("a count for each of the group's {} ranks", *group_size),
                               &(*s.args)["In split size"]);
                // Splits count rows of the input (its first dimension), as alltoall_base_ takes them.
                int64_t rows = 0;
                for (int64_t e : split->values) {
                    if (e < 0 || e > *n - rows)
                        fields.bad(s.at + ".In split size", fmt::format("rows that add up to at most {}", *n),
                                   &(*s.args)["In split size"]);
                    rows += e;
                }
                if (rows == 0 || *n % rows != 0) call.uneven_unknown = true;
                else
                    for (int64_t e : split->values) call.split.push_back(Bytes(e * (*n / rows) * size));
                if (std::adjacent_find(call.split.begin(), call.split.end(), std::not_equal_to<>()) == call.split.end())
                    call.split.clear();
            }
        }
        return call;
    }
    // 2. The input tensor of the nccl:* annotation or record_param_comms (2.0 era).
    for (const Source& s : sources) {
        if (!s.name.starts_with("nccl:") && s.name != "record_param_comms") continue;
        const auto in = read.input(s, 0);
        if (!in || !py_dtype(in->second)) continue;  // "TensorList", "Scalar": sizes elsewhere
        sized(in->first, in->second, s.at + ".Input type[0]", nullptr);
        if (call.op == CollOp::allgather) call.bytes = Bytes(call.bytes->count() * *group_size);
        break;
    }
    // 3. The c10d op: (output, input) for the *_base_ ops, else a tensor list.
    for (const Source& s : sources) {
        if (!s.name.starts_with("c10d::")) continue;
        const bool pair = s.name.find("_base") != std::string::npos || s.name.find("into_tensor") != std::string::npos;
        const auto out = read.input(s, 0);
        const auto in = pair ? read.input(s, 1) : out;
        if (call.op == CollOp::alltoall && out && in && out->first != in->first && call.split.empty())
            call.uneven_unknown = true;
        if (call.bytes) break;
        const auto& use = call.op == CollOp::allgather ? out : in;
        if (use && py_dtype(use->second)) sized(use->first, use->second, s.at + ".Input type", nullptr);
        else if (use && dtype_from(call.dtype)) call.bytes = Bytes(use->first * dtype_from(call.dtype)->size);
        break;
    }
    if (call.bytes) return call;
    if (!launch_in_trace) call.unsized = unlaunched;
    else if (launchers.empty()) call.unsized = "no record_param_comms, c10d::* or nccl:* op encloses its launch";
    else call.unsized = fmt::format("its launching ops ({}) record no tensor sizes (profiled without record_shapes?)",
                                    names_of(sources));
    return call;
}

}  // namespace collsim
