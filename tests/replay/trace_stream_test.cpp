// Native JSON traces read in one streaming pass (sim/replay/trace_stream.hpp):
// the same trace as the document reader gives, and every bad input an exit 2
// at its place.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "sim/core/json_stream.hpp"
#include "sim/core/text_file.hpp"
#include "sim/replay/import/any_trace.hpp"
#include "sim/replay/trace_loader.hpp"
#include "sim/replay/trace_stream.hpp"
#include "tests/support/input_error.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;

namespace {
std::string place(const SourceLocation& w) { return fmt::format("{}:{}:{}", w.file, w.line, w.column); }

std::string time_of(const std::optional<Time>& t) { return t ? std::to_string(t->ps()) : "-"; }

// Everything a loaded trace holds, as text to compare.
std::string describe(const Trace& t) {
    std::string s = fmt::format("{} {} {} {}\n", t.name, t.source, t.ranks, place(t.ranks_where));
    s += fmt::format("gpu {} {} {} {}\n", t.compute.card.value_or("-"), t.compute.custom ? t.compute.custom->name : "-",
                     t.compute.flops_efficiency, t.compute.memory_efficiency);
    for (const auto& name : t.streams) s += "stream " + name + "\n";
    for (const Communicator& c : t.communicators) {
        s += fmt::format("comm {} {}:", c.name, place(c.where));
        for (const auto& g : c.groups) s += fmt::format(" [{}]", fmt::join(g, ","));
        s += "\n";
    }
    for (int r = 0; r < t.ranks; ++r) {
        s += fmt::format("rank {}\n", r);
        for (const TraceOp& op : t.program(r).ops) {
            const ComputeCost& c = op.compute;
            const CollectiveSpec& k = op.collective;
            s += fmt::format("  {} {} {} [{}] {} | {} {} {} {} {} {} {} | {} {} {} {} {} {} {} {} | {} {} {} {}\n",
                             op.name, op.stream, to_string(op.kind), fmt::join(op.after, ","), place(op.where),
                             time_of(c.duration), c.flops, c.memory.count(), static_cast<int>(c.type), c.flops_efficiency,
                             c.memory_efficiency, c.host, static_cast<int>(k.op), k.bytes.count(), k.dtype, k.comm,
                             k.split.size(), time_of(k.duration), time_of(k.measured), k.root, op.p2p.peer,
                             op.p2p.comm.value_or(99), op.p2p.offset, op.p2p.bytes.count());
        }
    }
    return s;
}

std::string streamed(const std::string& text, const std::string& name) {
    JsonStream in(text, name);
    StreamedTrace s = stream_json_trace(in);
    REQUIRE(s.trace);
    return describe(*s.trace);
}

std::string stream_error(const std::string& text, int64_t max_ops = limits::kMaxNativeTraceOps) {
    return test::input_error_of([&] {
        JsonStream in(text, "t.json");
        stream_json_trace(in, max_ops);
    });
}

const std::string kSmallTrace = R"({
  "ranks": 2,
  "communicators": {"world": "all"},
  "program": [
    {"name": "a", "duration": "3us"},
    {"name": "b", "collective": "allreduce", "bytes": 4096, "comm": "world", "after": ["a"]}
  ]
})";
}  // namespace

TEST_CASE("a streamed JSON trace holds the same ops as the document reader's") {
    // The MoE samples (moe-64.json, examples/what-if/moe-*.json) end with
    // overrides, so they are read as documents, not streamed.
    for (const char* file : {"workloads/samples/dp-1024.json",
                             "examples/dp-1024-gradient-allreduce/dp-1024-buckets-overlap.json",
                             "examples/dp-1024-gradient-allreduce/dp-1024-buckets.json"}) {
        INFO(file);
        const std::string path = test::source_path(file);
        const std::string text = read_text_file(path);
        const std::string document = describe(parse_trace(text, path));
        CHECK(streamed(text, path) == document);
        JsonStream from_file(path);
        CHECK(describe(*stream_json_trace(from_file).trace) == document);
    }
    // Programs per rank, a gpu and sends, in one line: places still match.
    const std::string per_rank =
        R"({"name": "x", "ranks": 2, "gpu": {"card": "h100-sxm", "flops_efficiency": 0.5},)"
        R"( "communicators": {"w": {"groups": [[0, 1]]}}, "programs": [)"
        R"({"ranks": [0], "ops": [{"name": "s", "send": "next", "comm": "w", "bytes": 12e3, "stream": "p2p"}]},)"
        R"({"ops": [{"name": "r", "recv": 0, "bytes": "1KiB", "host": true}, {"name": "c", "flops": 1.5e12,)"
        R"( "bytes": "1MB", "dtype": "fp8", "after": ["r"]}], "ranks": "1"}]})";
    CHECK(streamed(per_rank, "p.json") == describe(parse_trace(per_rank, "p.json")));
}

TEST_CASE("a streamed trace reports a wrong field where the document reader does") {
    std::string bad = kSmallTrace;
    bad.replace(bad.find("\"3us\""), 5, "\"3\"");
    const std::string document = test::input_error_of([&] { parse_trace(bad, "t.json"); });
    CHECK_THAT(document, Catch::StartsWith("t.json:5:31: program[0].duration: expected a unit after the number"));
    CHECK(stream_error(bad) == document);
    // Wrong types: a list for a size, a number for a name, an unknown op name in after.
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
             {"4096", "[4096]"}, {"\"name\": \"a\"", "\"name\": {\"x\": 1}"}, {"[\"a\"]", "[\"nope\"]"},
             {"\"comm\": \"world\"", "\"comm\": 7"}, {"\"ranks\": 2", "\"ranks\": \"two\""}}) {
        std::string wrong = kSmallTrace;
        wrong.replace(wrong.find(from), from.size(), to);
        INFO(wrong);
        const std::string error = stream_error(wrong);
        CHECK_THAT(error, Catch::StartsWith("t.json:"));
        CHECK(error == test::input_error_of([&] { parse_trace(wrong, "t.json"); }));
    }
}

TEST_CASE("a cut, malformed, too deep or too long streamed trace is an error at its place") {
    CHECK_THAT(stream_error(kSmallTrace.substr(0, kSmallTrace.find("\"3us\"") + 3)),
               Catch::StartsWith("t.json:5:33: json: expected well-formed JSON (a native trace), found the end of the file"));
    CHECK_THAT(stream_error(R"({"ranks": 2, "program": [{"name": "a",, }]})"),
               Catch::StartsWith("t.json:1:39: json: expected well-formed JSON (a native trace), found malformed JSON"));
    CHECK_THAT(stream_error(R"({"ranks": 1, "program": [{"name": "a", "duration": 1e400}]})"),
               Catch::StartsWith("t.json:1:57: json: expected numbers within a double's range"));
    CHECK_THAT(stream_error(R"({"ranks": 1, "program": [{"name": "a", "x": )" + std::string(300, '[')),
               Catch::StartsWith("t.json:1:298: json: expected lists and objects nested at most 256 deep"));
    CHECK_THAT(stream_error(kSmallTrace, 1),
               Catch::StartsWith("t.json:6:5: program: expected at most 1 ops in a native trace (the native trace "
                                 "op limit), found op 2"));
    CHECK_THAT(stream_error("[1, 2]"), Catch::StartsWith("t.json:1:1: trace: expected a mapping of fields, found a list"));
}

TEST_CASE("a JSON trace that cannot be streamed is read as a document, within the document limit") {
    const std::string path = "/tmp/collsim-trace-stream-" + std::to_string(::getpid()) + ".json";
    // Ranks after the program (and overrides): the same trace either way.
    std::string late = R"({"communicators": {"world": "all"}, "program": [{"name": "a", "duration": "3us"}],)"
                       R"( "overrides": [{"ranks": 1, "op": "a", "duration": "5us"}], "ranks": 2})";
    std::ofstream(path) << late;
    JsonStream in(path);
    CHECK(stream_json_trace(in).not_streamed == "its `ranks` comes after its programs");
    CHECK(describe(load_any_trace(path)) == describe(parse_trace(late, path)));
    // Past 32 MiB it is refused, saying why it was not streamed.
    late.insert(1, "\"description\": \"" + std::string(33 << 20, 'x') + "\", ");
    std::ofstream(path) << late;
    CHECK_THAT(test::input_error_of([&] { load_any_trace(path); }),
               Catch::Contains("(the native trace document size limit") && Catch::Contains("not streamed: its `ranks` comes after its programs"));
    std::filesystem::remove(path);
}

TEST_CASE("collsim replay exits 2 on a cut streamed trace, naming its place") {
    const std::string path = "/tmp/collsim-trace-stream-cli-" + std::to_string(::getpid()) + ".json";
    std::ofstream(path) << kSmallTrace.substr(0, kSmallTrace.find("\"3us\"") + 3);
    const auto r = test::run_cli("replay --topology topologies/dgx-h100.yaml --trace " + path);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(path + ":5:33: json: expected well-formed JSON"));
    std::filesystem::remove(path);
}
