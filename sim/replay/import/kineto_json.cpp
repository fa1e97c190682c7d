#include "sim/replay/import/kineto_json.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "sim/core/json_places.hpp"
#include "sim/core/text_file.hpp"
#include "sim/replay/import/kineto_comm.hpp"
#include "sim/replay/import/kineto_time.hpp"

namespace collsim {

namespace {
using nlohmann::json;

enum class Kind { other, gpu, runtime, cpu };

Kind kind_of(std::string cat) {
    std::transform(cat.begin(), cat.end(), cat.begin(), [](unsigned char c) { return std::tolower(c); });
    if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "memcpy" || cat == "memset")
        return Kind::gpu;
    if (cat == "cuda_runtime" || cat == "cuda_driver" || cat == "runtime") return Kind::runtime;
    if (cat == "cpu_op" || cat == "user_annotation" || cat == "operator") return Kind::cpu;
    return Kind::other;
}

KinetoJob read_job(const json& doc, const KinetoFields& f, std::vector<std::string>& notes) {
    KinetoJob job;
    const json* info = f.object(doc, "distributedInfo", "");
    const auto rank = info ? f.integer(*info, "rank", "distributedInfo") : std::nullopt;
    const auto world = info ? f.integer(*info, "world_size", "distributedInfo") : std::nullopt;
    if (!rank || !world) {
        notes.push_back(fmt::format("{}: no distributedInfo (rank and world size); taken as rank 0 of 1", f.file()));
        return job;
    }
    if (*world < 1 || *world > kMaxImportedRanks)
        f.bad("distributedInfo.world_size", fmt::format("1 to {} ranks", kMaxImportedRanks), &(*info)["world_size"]);
    if (*rank < 0 || *rank >= *world)
        f.bad("distributedInfo.rank", fmt::format("a rank of the job's {}", *world), &(*info)["rank"]);
    job.rank = static_cast<int>(*rank);
    job.world = static_cast<int>(*world);
    if (const json* pgs = f.array(*info, "pg_config", "distributedInfo"))
        for (std::size_t i = 0; i < pgs->size(); ++i) {
            const std::string at = fmt::format("distributedInfo.pg_config[{}]", i);
            if (!(*pgs)[i].is_object()) f.bad(at, "a process group ({pg_name, ranks})", &(*pgs)[i]);
            const auto name = f.string((*pgs)[i], "pg_name", at);
            const json* ranks = f.array((*pgs)[i], "ranks", at);
            if (!name || !ranks) continue;
            std::vector<int>& g = job.groups[*name];
            for (const json& r : *ranks) {
                if (!r.is_number_integer() || r.get<int64_t>() < 0 || r.get<int64_t>() >= job.world)
                    f.bad(at + ".ranks", fmt::format("ranks of the job's {}", job.world), &r);
                g.push_back(r.get<int>());
            }
            std::sort(g.begin(), g.end());
        }
    return job;
}

// An "X" event's name, cat, times (exact, from the text at `offset`) and ids.
KinetoSpan read_span(const json& e, std::size_t i, const std::string& text, std::size_t offset, const KinetoFields& f) {
    const std::string at = fmt::format("traceEvents[{}]", i);
    KinetoSpan s;
    s.event = i;
    s.name = f.string(e, "name", at).value_or("");
    for (const char* key : {"ts", "dur"}) {
        const std::string field = at + "." + key;
        const auto v = e.find(key);
        if (v == e.end() || !v->is_number() || v->get<double>() < 0)
            f.bad(field, "a time in microseconds that is not negative", v == e.end() ? nullptr : &*v);
        // "ts" counts from the Unix epoch or a process clock; only the spans between events are bounded.
        const std::optional<int64_t> ns = kineto_ns(json_member_text(text, offset, key));
        const bool dur = key[0] == 'd';
        if (dur && (!ns || *ns / 1000 >= kClockLimitUs)) f.bad(field, "a time in microseconds within 106 days", &*v);
        if (!ns) f.bad(field, "a time in microseconds below 2^63 ns (292 years)", &*v);
        (dur ? s.dur : s.ts) = *ns;
    }
    s.args = f.object(e, "args", at);
    const std::string args_at = at + ".args";
    if (s.args) {
        s.external = f.integer(*s.args, "External id", args_at);
        s.correlation = f.integer(*s.args, "correlation", args_at);
    }
    const auto stream = s.args ? f.id(*s.args, "stream", args_at) : std::nullopt;
    s.thread = stream ? *stream : f.id(e, "tid", at).value_or("");
    return s;
}
}  // namespace

bool is_kineto_json(const json& doc) { return doc.is_object() && doc.contains("traceEvents"); }

ImportedProgram import_kineto_rank(const json& doc, const std::string& text, const std::string& file) {
    const KinetoFields f(file);
    const json* events = &doc["traceEvents"];
    if (!events->is_array()) f.bad("traceEvents", "a list of events", events);
    const std::vector<std::size_t> offsets = json_element_offsets(text, "traceEvents");
    if (offsets.size() != events->size()) f.bad("traceEvents", "one list of events", events);
    ImportedProgram out;
    const KinetoJob job = read_job(doc, f, out.notes);
    out.rank = job.rank;
    out.world = job.world;
    std::vector<KinetoSpan> gpu, runtime, comm_ops;
    for (std::size_t i = 0; i < events->size(); ++i) {
        const json& e = (*events)[i];
        const std::string at = fmt::format("traceEvents[{}]", i);
        if (!e.is_object()) f.bad(at, "an event (an object of fields)", &e);
        if (f.string(e, "ph", at) != "X") continue;
        const std::string name = f.string(e, "name", at).value_or("");
        const Kind kind = kind_of(f.string(e, "cat", at).value_or(""));
        if (kind == Kind::other || (kind == Kind::cpu && !is_comm_op(name))) continue;
        KinetoSpan s = read_span(e, i, text, offsets[i], f);
        (kind == Kind::gpu ? gpu : kind == Kind::runtime ? runtime : comm_ops).push_back(std::move(s));
    }
    if (gpu.empty())
        throw InputError(SourceLocation{file, 0, 0}, "traceEvents",
                         "GPU activity to replay: kernels, memcpys or memsets (cat kernel, gpu_memcpy, gpu_memset)",
                         fmt::format("none among its {} events", events->size()));
    const KinetoLaunches launches(std::move(comm_ops), std::move(runtime));
    int64_t first = gpu.front().ts;
    for (const KinetoSpan& k : gpu) first = std::min(first, k.ts);
    std::stable_sort(gpu.begin(), gpu.end(), [](const KinetoSpan& a, const KinetoSpan& b) {
        return a.ts < b.ts || (a.ts == b.ts && a.thread < b.thread);
    });
    std::vector<std::size_t> gpu_offsets;
    for (const KinetoSpan& k : gpu) gpu_offsets.push_back(offsets[k.event]);
    std::vector<std::size_t> sorted_offsets = gpu_offsets;
    std::sort(sorted_offsets.begin(), sorted_offsets.end());
    const std::vector<SourceLocation> sorted_places = text_positions(text, sorted_offsets, file);
    std::map<std::string, uint32_t> stream_of;
    std::map<std::string, std::vector<std::size_t>> on_stream;  // kernels of each stream, in time order
    std::vector<std::pair<Time, Time>> spans;                     // start and end of each op
    std::map<std::string, int> differs;
    int uneven = 0;
    std::set<std::string> cut_groups;
    for (std::size_t k = 0; k < gpu.size(); ++k) {
        const KinetoSpan& g = gpu[k];
        const std::string at = fmt::format("traceEvents[{}]", g.event);
        const int64_t start_ns = g.ts - first;
        if (start_ns / 1000 >= kClockLimitUs)
            f.bad(at + ".ts", "a start within 106 days of the first kernel's", &(*events)[g.event]["ts"]);
        if (g.dur / 1000 >= kClockLimitUs - start_ns / 1000)
            f.bad(at + ".dur", "kernels that end within 106 days of the first", &(*events)[g.event]["dur"]);
        const Time start = Time::from_ps(start_ns * 1000), end = Time::from_ps((start_ns + g.dur) * 1000);
        spans.emplace_back(start, end);
        auto [it, fresh] = stream_of.emplace(g.thread, static_cast<uint32_t>(out.streams.size()));
        if (fresh) out.streams.push_back("stream " + g.thread);
        TraceOp op;
        op.stream = it->second;
        const auto place = std::lower_bound(sorted_offsets.begin(), sorted_offsets.end(), gpu_offsets[k]);
        op.where = sorted_places[static_cast<std::size_t>(place - sorted_offsets.begin())];
        op.name = short_op_name(g.name.empty() ? "kernel" : g.name, g.event);
        const Time dur = end - start;
        if (auto nccl = parse_nccl_kernel(g.name)) {
            const bool launched = g.correlation && launches.launched(*g.correlation);
            const KinetoCall call = kineto_call(*nccl, g.args, at, g.correlation ? launches.launchers(*g.correlation)
                                                                               : std::vector<const KinetoSpan*>{},
                                                launched, job, f);
            op.kind = OpKind::collective;
            op.collective.op = call.op;
            if (!call.dtype.empty()) op.collective.dtype = call.dtype;
            op.collective.measured = dur;
            const ImportedComm comm{call.comm, call.group};
            auto c = std::find_if(out.comms.begin(), out.comms.end(),
                                  [&](const ImportedComm& x) { return x.name == comm.name; });
            if (c == out.comms.end()) c = out.comms.insert(out.comms.end(), comm);
            op.collective.comm = static_cast<uint32_t>(c - out.comms.begin());
            if (call.bytes) {
                op.collective.bytes = *call.bytes;
                op.collective.split = call.split;
            } else {
                op.collective.duration = dur;
                out.unsized.push_back(UnsizedCall{op.name, op.where, call.unsized, dur});
            }
            if (call.op_differs)
                ++differs[fmt::format("{} kernels launched by {} are taken as {}", nccl_kernel_label(nccl->op), call.launcher,
                                      to_string(call.op))];
            uneven += call.uneven_unknown;
            if (call.group_unknown) cut_groups.insert(call.comm);
        } else {
            op.kind = OpKind::compute;
            op.compute.duration = dur;
        }
        // The measured order across streams: after the last kernel of each other stream that had ended.
        for (const auto& [stream, list] : on_stream) {
            if (stream == g.thread) continue;
            for (auto j = list.rbegin(); j != list.rend(); ++j)
                if (!(start < spans[*j].second)) {
                    op.after.push_back(static_cast<OpIndex>(*j));
                    break;
                }
        }
        on_stream[g.thread].push_back(k);
        out.program.ops.push_back(std::move(op));
    }
    for (const auto& [what, count] : differs)
        out.notes.push_back(fmt::format("{}: {} {} (the launching op names the collective)", file, count, what));
    if (uneven > 0)
        out.notes.push_back(fmt::format("{}: {} all-to-alls have uneven splits that the trace does not record in full "
                                        "(their input and output differ, or the profiler cut the list short): each "
                                        "runs as an even all-to-all of its input",
                                        file, uneven));
    for (const std::string& g : cut_groups)
        out.notes.push_back(fmt::format("{}: {}: the profiler cut its \"Process Group Ranks\" short, and neither "
                                        "pg_config nor a rank stride gives them: taken as the whole job",
                                        file, g));
    if (!out.unsized.empty())
        out.notes.push_back(fmt::format("{}: {} NCCL kernels have no size the trace records; they keep their measured "
                                        "time (each is listed in the output)",
                                        file, out.unsized.size()));
    return out;
}

}  // namespace collsim
