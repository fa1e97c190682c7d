#pragma once
// Small text helpers shared by the nccl-tests readers: splitting lines into
// fields and reading numbers that must fill the whole field.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace collsim {

std::string_view trim(std::string_view s);
// The text in lower case (ASCII), for names matched without case.
std::string lower_case(std::string_view s);
// Whitespace-separated words, each with its 1-based column.
struct Word {
    std::string_view text;
    int column = 1;
};
std::vector<Word> split_words(std::string_view line);
// Fields between `sep`, each trimmed, with its 1-based column.
std::vector<Word> split_fields(std::string_view line, char sep);
// The text's lines without their line ends ("\n" or "\r\n").
std::vector<std::string_view> split_lines(std::string_view text);

// A finite decimal number ("12.5", "2e+06") filling the whole field.
std::optional<double> parse_number(std::string_view s);
std::optional<int64_t> parse_integer(std::string_view s);

// The first "X.Y.Z" in a text ("2.29.2+cuda13.1" gives "2.29.2"); empty if none.
std::string find_version(std::string_view s);
// Every "-g N" and "nGpus N" in a text (an nccl-tests command line or its
// run header), each with the 0-based offset of its number: how many GPUs
// one nccl-tests thread drives.
std::vector<std::pair<int64_t, std::size_t>> gpus_per_thread_mentions(std::string_view s);
// NCCL_VERSION_CODE as nccl-tests prints it (nccl-library=22903) as "2.29.3";
// codes before 2.9 were major*1000 + minor*100 + patch.
std::string nccl_version_from_code(int64_t code);

}  // namespace collsim
