#pragma once
// Helpers every subcommand uses to check its options.
#include <optional>
#include <string>
#include <vector>

#include "sim/core/time.hpp"

namespace collsim {

// Throws InputError for a command-line option: "--op: expected ..., found '...'".
[[noreturn]] void bad_option(const std::string& option, std::string expected, const std::string& found);

// The watchdog of --timeout: nullopt for "", else a positive time with a unit.
std::optional<Time> parse_timeout(const std::string& text);

// "a,b,c" -> {"a", "b", "c"}
std::vector<std::string> split_list(const std::string& text);

// --disable: every name a registered algorithm.
void check_disabled(const std::vector<std::string>& names);

}  // namespace collsim
