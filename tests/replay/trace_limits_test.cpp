// The bounds a trace is read within (sim/core/limits.hpp): each refused at
// once with the limit named, before memory grows with the input.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/core/json_input.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/text_file.hpp"
#include "sim/replay/import/any_trace.hpp"
#include "sim/replay/import/imported.hpp"
#include "tests/support/input_error.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;

namespace {
std::string trace_limits_file(const std::string& suffix, const std::string& text) {
    const std::string path = "/tmp/collsim-trace-limits-" + std::to_string(::getpid()) + suffix;
    std::ofstream(path) << text;
    return path;
}
}  // namespace

TEST_CASE("a YAML trace past the native trace document size limit is refused before it is parsed") {
    // 33 MiB of comment lines: the YAML reader would hold about 60 bytes per byte.
    std::string text;
    const std::string line = "# " + std::string(1022, 'x') + "\n";
    for (int i = 0; i < 33 * 1024; ++i) text += line;
    const std::string path = trace_limits_file(".yaml", text);
    CHECK_THAT(test::input_error_of([&] { load_any_trace(path); }),
               Catch::Contains(path + ": file: expected a native trace of at most 32 MiB (the native trace document "
                                      "size limit") &&
                   Catch::Contains("found 34636800 bytes"));
    std::filesystem::remove(path);
}

TEST_CASE("a JSON trace nested past the nesting limit is refused at its place") {
    // Issue 24: a Kineto event's args.device 10^6 lists deep overflowed the stack.
    const std::string path =
        trace_limits_file(".json", "{\"traceEvents\": [{\"args\": {\"device\": " + std::string(100000, '[') + "\n");
    CHECK_THAT(test::input_error_of([&] { load_any_trace(path); }),
               Catch::Contains(path + ":1:290: json: expected lists and objects nested at most 256 deep (kMaxJsonDepth), "
                                      "found nesting deeper than 256"));
    std::filesystem::remove(path);
}

TEST_CASE("JSON held in a string value is bounded by the nesting limit too") {
    // Kineto's "Process Group Ranks" is a list written as a string; nested a million deep it is a bad
    // value at its own place, not a recursion.
    const std::string sample = test::source_path("workloads/samples/kineto/rank0.pt.trace.json");
    std::string text = read_text_file(sample);
    const std::string ranks = "\"Process Group Ranks\": \"[0, 1]\"";
    const std::size_t at = text.find(ranks);
    REQUIRE(at != std::string::npos);
    text.replace(at, ranks.size(), "\"Process Group Ranks\": \"" + std::string(1'000'000, '[') + "\"");
    const std::string path = trace_limits_file(".json", text);
    CHECK_THAT(test::input_error_of([&] { load_any_trace(path); }),
               Catch::Contains(path + ":319:") && Catch::Contains("Process Group Ranks: expected a list of integers"));
    std::filesystem::remove(path);
}

TEST_CASE("a native trace written as JSON is told from Kineto by its top-level keys alone") {
    CHECK(json_has_top_level_key(R"({"name": "x", "traceEvents": 1})", "traceEvents") == true);
    // The key nested deeper, or in a string, does not count.
    CHECK(json_has_top_level_key(R"({"program": [{"traceEvents": 1}], "n": "traceEvents"})", "traceEvents") == false);
    CHECK_FALSE(json_has_top_level_key(R"({"program": [)", "traceEvents").has_value());
    // Found before the text breaks: the reader that takes it reports where.
    CHECK(json_has_top_level_key(R"({"traceEvents": [}})", "traceEvents") == true);
    // The shipped native JSON trace still reads (by the YAML reader, which names its lines).
    CHECK(load_any_trace(test::source_path("workloads/samples/dp-1024.json")).ranks == 1024);
}

TEST_CASE("an imported trace past the op limit is refused at the file that passes it") {
    CHECK_NOTHROW(check_imported_ops(static_cast<std::size_t>(limits::kMaxTraceOps), "a.json"));
    CHECK_THAT(test::input_error_of([] { check_imported_ops(static_cast<std::size_t>(limits::kMaxTraceOps) + 1, "b.json"); }),
               Catch::Contains("b.json:1:1: ops: expected at most 4194304 ops in an imported trace, over all its rank "
                               "files (the op limit), found 4194305 ops up to the end of this file"));
}
