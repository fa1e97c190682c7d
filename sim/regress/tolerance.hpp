#pragma once
// How much worse a metric may get before regress calls it a regression.
#include <optional>
#include <string>
#include <string_view>

namespace collsim {

// "2%", "0.5%" or "0": a fraction (0.02, 0.005, 0); nullopt for anything
// else (a bare 2 would be ambiguous: 2% or 200%?).
std::optional<double> parse_tolerance(std::string_view text);
std::string format_tolerance(double fraction);

}  // namespace collsim
