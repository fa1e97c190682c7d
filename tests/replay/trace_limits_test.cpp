// The bounds a trace is read within (sim/core/limits.hpp): each refused at
// once with the limit named, before memory grows with the input.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/replay/import/any_trace.hpp"
#include "tests/support/input_error.hpp"

using namespace collsim;

namespace {
std::string trace_limits_file(const std::string& suffix, const std::string& text) {
    const std::string path = "/tmp/collsim-trace-limits-" + std::to_string(::getpid()) + suffix;
    std::ofstream(path) << text;
    return path;
}
}  // namespace

TEST_CASE("a native trace past the native trace size limit is refused before it is parsed") {
    // 33 MiB of comment lines: the YAML reader would hold about 60 bytes per byte.
    std::string text;
    const std::string line = "# " + std::string(1022, 'x') + "\n";
    for (int i = 0; i < 33 * 1024; ++i) text += line;
    const std::string path = trace_limits_file(".yaml", text);
    CHECK_THAT(test::input_error_of([&] { load_any_trace(path); }),
               Catch::Contains(path + ": file: expected a native trace of at most 32 MiB (the native trace size "
                                      "limit") &&
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
