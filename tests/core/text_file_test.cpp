#include <catch2/catch.hpp>

#include <unistd.h>
#include <zlib.h>

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
               Catch::Contains("/tmp: file: expected a regular file or a pipe, found a directory"));
    CHECK_THAT(test::input_error_of([&] { read_text_file(path); }),
               Catch::Contains("file: expected a readable file, found it cannot be opened"));
}

TEST_CASE("a gzip-compressed text file reads as its content; a truncated one is an error") {
    const std::string path = "/tmp/collsim-text-file-" + std::to_string(::getpid()) + ".json.gz";
    std::string text;
    for (int i = 0; i < 2000; ++i) text += "{\"rank\": " + std::to_string(i) + "}\n";
    gzFile out = gzopen(path.c_str(), "wb");
    REQUIRE(out != nullptr);
    const std::string marked = "\xEF\xBB\xBF" + text;
    gzwrite(out, marked.data(), static_cast<unsigned>(marked.size()));
    gzclose(out);
    CHECK(read_text_file(path) == text);
    std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
    CHECK_THAT(test::input_error_of([&] { read_text_file(path); }),
               Catch::Contains("file: expected a readable file (plain or gzip), found a read error"));
    std::filesystem::remove(path);
}

TEST_CASE("a device or a file past the input size limit is refused without reading it through") {
    // /dev/zero never ends (issue 24: replay --trace /dev/zero grew to 8 GiB).
    CHECK_THAT(test::input_error_of([] { read_text_file("/dev/zero"); }),
               Catch::Contains("/dev/zero: file: expected a regular file or a pipe, found a character device"));
    const std::string path = "/tmp/collsim-text-file-big-" + std::to_string(::getpid()) + ".txt";
    std::ofstream(path) << std::string(5000, 'x');
    CHECK(read_text_file(path, 5000).size() == 5000);
    CHECK_THAT(test::input_error_of([&] { read_text_file(path, 4999); }),
               Catch::Contains("file: expected a file of at most 4999 bytes (0 MiB, the input size limit), "
                               "found 5000 bytes"));
    std::filesystem::remove(path);
}

TEST_CASE("a compressed file that unpacks past the size limit is refused as it unpacks") {
    const std::string path = "/tmp/collsim-text-file-bomb-" + std::to_string(::getpid()) + ".gz";
    const std::string zeros(1 << 20, '0');
    gzFile out = gzopen(path.c_str(), "wb");
    REQUIRE(out != nullptr);
    gzwrite(out, zeros.data(), static_cast<unsigned>(zeros.size()));
    gzclose(out);
    REQUIRE(std::filesystem::file_size(path) < 100'000);
    CHECK_THAT(test::input_error_of([&] { read_text_file(path, 100'000); }),
               Catch::Contains("found more (131072 bytes read, unpacked, and not at the end)"));
    std::filesystem::remove(path);
}
