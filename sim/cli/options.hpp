#pragma once
// Helpers every subcommand uses to check its options.
#include <string>
#include <vector>

namespace collsim {

// Throws InputError for a command-line option: "--op: expected ..., found '...'".
[[noreturn]] void bad_option(const std::string& option, std::string expected, const std::string& found);

// "a,b,c" -> {"a", "b", "c"}
std::vector<std::string> split_list(const std::string& text);

}  // namespace collsim
