#include "sim/regress/tolerance.hpp"

#include <charconv>

#include <fmt/format.h>

namespace collsim {

std::optional<double> parse_tolerance(std::string_view text) {
    if (text == "0") return 0.0;
    if (!text.ends_with('%')) return std::nullopt;
    text.remove_suffix(1);
    double pct = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), pct);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty() || !(pct >= 0) || pct > 1000)
        return std::nullopt;
    return pct / 100;
}

std::string format_tolerance(double fraction) { return fmt::format("{:g}%", fraction * 100); }

}  // namespace collsim
