#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/core/text_file.hpp"
#include "tests/support/input_error.hpp"

using namespace collsim;

TEST_CASE("a text file reads without its byte order mark, and a directory is not a file") {
    const std::string path = "/tmp/collsim-text-file-" + std::to_string(::getpid()) + ".csv";
    std::ofstream(path) << "\xEF\xBB\xBFrank,collective\n";
    CHECK(read_text_file(path) == "rank,collective\n");
    std::filesystem::remove(path);
    CHECK_THAT(test::input_error_of([] { read_text_file("/tmp"); }),
               Catch::Contains("/tmp: file: expected a readable file, found a directory"));
    CHECK_THAT(test::input_error_of([&] { read_text_file(path); }),
               Catch::Contains("file: expected a readable file, found it cannot be opened"));
}
