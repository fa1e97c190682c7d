#include "sim/replay/import/kineto_json.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "sim/replay/import/nccl_kernel.hpp"

namespace collsim {

namespace {
using nlohmann::json;

struct Kernel {
    double ts = 0;  // as read, in microseconds
    Time duration;
    Time start, end;
    int64_t stream = 0;
    std::size_t event = 0;  // index in traceEvents
};

// A timestamp in microseconds: Kineto writes them since the Unix epoch
// (1.7e15 us), beyond what the clock holds, so kernels keep them as read
// and start from the earliest one.
double timestamp(const json& v, const std::string& file, const std::string& field) {
    if (!v.is_number() || !(v.get<double>() >= 0))
        throw InputError(SourceLocation{file, 0, 0}, field, "a time in microseconds that is not negative",
                         v.is_null() ? "nothing" : v.dump());
    return v.get<double>();
}

Time microseconds(double us, const std::string& file, const std::string& field, const json& found,
                  const char* expected = "a time in microseconds within 106 days") {
    if (!(us >= 0 && us < kClockLimitUs)) throw InputError(SourceLocation{file, 0, 0}, field, expected, found.dump());
    return Time::from_ps(std::llround(us * 1e6));
}

// PyTorch's dtype names in record_param_comms args (c10::ScalarType names).
int element_size(const std::string& t) {
    static const std::map<std::string, int> sizes{{"Float", 4}, {"Half", 2},  {"BFloat16", 2}, {"Double", 8},
                                                  {"Int", 4},   {"Long", 8},  {"Short", 2},    {"Char", 1},
                                                  {"Byte", 1},  {"Bool", 1},  {"Float8_e4m3fn", 1},
                                                  {"Float8_e5m2", 1}};
    auto it = sizes.find(t);
    return it == sizes.end() ? 0 : it->second;
}

std::vector<int> parse_rank_list(const json& v) {
    // "[0, 1, 2]" as PyTorch writes it: a string holding a JSON list.
    std::vector<int> out;
    if (!v.is_string()) return out;
    const json list = json::parse(v.get<std::string>(), nullptr, false);
    if (!list.is_array()) return out;
    for (const json& r : list)
        if (r.is_number_integer()) out.push_back(r.get<int>());
    std::sort(out.begin(), out.end());
    return out;
}

// Bytes in nccl-tests' convention: AllGather counts its output, the rest their input.
std::optional<Bytes> message_bytes(const json& args, CollOp op) {
    const char* key = op == CollOp::allgather ? "Out msg nelems" : "In msg nelems";
    if (!args.contains(key) || !args[key].is_number_integer() || !args.contains("dtype") || !args["dtype"].is_string())
        return std::nullopt;
    const int size = element_size(args["dtype"].get<std::string>());
    if (size == 0) return std::nullopt;
    return Bytes(args[key].get<int64_t>() * size);
}
}  // namespace

bool is_kineto_json(const json& doc) { return doc.is_object() && doc.contains("traceEvents"); }

ImportedProgram import_kineto_rank(const json& doc, const std::string& file) {
    const json& events = doc["traceEvents"];
    if (!events.is_array())
        throw InputError(SourceLocation{file, 0, 0}, "traceEvents", "a list of events", events.dump().substr(0, 40));
    ImportedProgram out;
    const json info = doc.contains("distributedInfo") ? doc["distributedInfo"] : json::object();
    if (info.is_object() && info.contains("rank") && info["rank"].is_number_integer() && info.contains("world_size") &&
        info["world_size"].is_number_integer()) {
        out.rank = info["rank"].get<int>();
        out.world = info["world_size"].get<int>();
    } else {
        out.notes.push_back(fmt::format("{}: no distributedInfo (rank and world size); taken as rank 0 of 1", file));
    }
    std::vector<Kernel> kernels;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const json& e = events[i];
        if (!e.is_object() || e.value("ph", "") != "X") continue;
        std::string cat = e.value("cat", "");
        std::transform(cat.begin(), cat.end(), cat.begin(), [](unsigned char c) { return std::tolower(c); });
        if (cat != "kernel" && cat != "gpu_memcpy" && cat != "gpu_memset") continue;
        const std::string at = fmt::format("traceEvents[{}]", i);
        Kernel k;
        k.ts = timestamp(e.value("ts", json()), file, at + ".ts");
        const json dur = e.value("dur", json());
        k.duration = microseconds(timestamp(dur, file, at + ".dur"), file, at + ".dur", dur);
        const json args = e.value("args", json::object());
        k.stream = args.contains("stream") && args["stream"].is_number_integer() ? args["stream"].get<int64_t>()
                                                                                : e.value("tid", int64_t{0});
        k.event = i;
        kernels.push_back(k);
    }
    double first = 0;
    for (std::size_t i = 0; i < kernels.size(); ++i) first = i ? std::min(first, kernels[i].ts) : kernels[i].ts;
    for (Kernel& k : kernels) {
        const std::string at = fmt::format("traceEvents[{}]", k.event);
        k.start = microseconds(k.ts - first, file, at + ".ts", k.ts, "a start within 106 days of the first kernel's");
        if (k.duration.ps() > INT64_MAX - k.start.ps())
            throw InputError(SourceLocation{file, 0, 0}, at + ".dur", "kernels that end within 106 days of the first",
                             json(k.duration.us()).dump());
        k.end = k.start + k.duration;
    }
    std::stable_sort(kernels.begin(), kernels.end(), [](const Kernel& a, const Kernel& b) {
        return a.start < b.start || (a.start == b.start && a.stream < b.stream);
    });
    std::map<int64_t, uint32_t> stream_of;
    std::map<int64_t, std::vector<std::size_t>> on_stream;  // kernels of each stream, in time order
    int measured = 0;
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        const json& e = events[kernels[k].event];
        const json args = e.value("args", json::object());
        auto [it, fresh] = stream_of.emplace(kernels[k].stream, static_cast<uint32_t>(out.streams.size()));
        if (fresh) out.streams.push_back(fmt::format("stream {}", kernels[k].stream));
        TraceOp op;
        op.stream = it->second;
        op.where = SourceLocation{file, 0, 0};
        const std::string name = e.value("name", std::string("kernel"));
        op.name = short_op_name(name, kernels[k].event);
        const Time dur = kernels[k].end - kernels[k].start;
        if (auto nccl = parse_nccl_kernel(name)) {
            op.kind = OpKind::collective;
            op.collective.op = nccl->op;
            if (!nccl->dtype.empty()) op.collective.dtype = nccl->dtype;
            op.collective.measured = dur;
            ImportedComm comm{"world", {}};
            if (args.contains("Process Group Name") && args["Process Group Name"].is_string())
                comm = ImportedComm{"pg " + args["Process Group Name"].get<std::string>(),
                                    parse_rank_list(args.value("Process Group Ranks", json()))};
            auto c = std::find_if(out.comms.begin(), out.comms.end(),
                                  [&](const ImportedComm& x) { return x.name == comm.name; });
            if (c == out.comms.end()) c = out.comms.insert(out.comms.end(), comm);
            op.collective.comm = static_cast<uint32_t>(c - out.comms.begin());
            const auto bytes = nccl->op == CollOp::sendrecv ? std::nullopt : message_bytes(args, nccl->op);
            if (bytes) op.collective.bytes = *bytes;
            else {
                op.collective.duration = dur;
                ++measured;
            }
        } else {
            op.kind = OpKind::compute;
            op.compute.duration = dur;
        }
        // The measured order across streams: after the last kernel of each other stream that had ended.
        for (const auto& [stream, list] : on_stream) {
            if (stream == kernels[k].stream) continue;
            for (auto j = list.rbegin(); j != list.rend(); ++j)
                if (!(kernels[k].start < kernels[*j].end)) {
                    op.after.push_back(static_cast<OpIndex>(*j));
                    break;
                }
        }
        on_stream[kernels[k].stream].push_back(k);
        out.program.ops.push_back(std::move(op));
    }
    if (measured > 0)
        out.notes.push_back(fmt::format("{}: {} NCCL kernels carry no message size (or are send/receive); they keep "
                                        "their measured duration",
                                        file, measured));
    return out;
}

}  // namespace collsim
