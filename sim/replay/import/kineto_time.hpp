#pragma once
// Kineto's timestamps, read exactly. Kineto writes "ts" and "dur" in
// microseconds, since the Unix epoch (1.7e15 us) or a process clock, with a
// fractional part to the nanosecond ("4458677009853.422"). A double holds
// 1.7e15 us only to a quarter microsecond, so the number is read from its text:
// integer nanoseconds, rounded to the nearest where more digits are written.
#include <cstdint>
#include <optional>
#include <string_view>

namespace collsim {

// Nanoseconds in the JSON number `text` (microseconds: "12", "12.5",
// "1.25e1"); nullopt where it is not a plain number, is negative, or passes
// 2^63 ns (292 years).
std::optional<int64_t> kineto_ns(std::string_view text);

}  // namespace collsim
