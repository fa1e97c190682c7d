#pragma once
// Simulated time: an integer count of picoseconds. Integer time keeps runs
// bit-identical and avoids the epsilon comparisons that double time needs.
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace collsim {

class Time {
public:
    constexpr Time() = default;
    static constexpr Time from_ps(int64_t ps) { return Time(ps); }
    static constexpr Time max() { return Time(INT64_MAX); }

    constexpr int64_t ps() const { return ps_; }
    constexpr double us() const { return static_cast<double>(ps_) / 1e6; }

    constexpr auto operator<=>(const Time&) const = default;
    constexpr Time operator+(Time o) const { return Time(ps_ + o.ps_); }
    constexpr Time operator-(Time o) const { return Time(ps_ - o.ps_); }
    constexpr Time& operator+=(Time o) { ps_ += o.ps_; return *this; }
    constexpr Time operator*(int64_t k) const { return Time(ps_ * k); }

private:
    constexpr explicit Time(int64_t ps) : ps_(ps) {}
    int64_t ps_ = 0;
};

// The clock holds 2^63 ps, about 106 days. Durations read from inputs are
// held below this round figure, a little under it, so that one converted
// from a double cannot round past the end.
inline constexpr double kClockLimitUs = 9.2e12;

namespace literals {
constexpr Time operator""_ps(unsigned long long v) { return Time::from_ps(static_cast<int64_t>(v)); }
constexpr Time operator""_ns(unsigned long long v) { return Time::from_ps(static_cast<int64_t>(v) * 1000); }
constexpr Time operator""_us(unsigned long long v) { return Time::from_ps(static_cast<int64_t>(v) * 1000000); }
constexpr Time operator""_ms(unsigned long long v) { return Time::from_ps(static_cast<int64_t>(v) * 1000000000); }
}  // namespace literals

// Parses "0.5us", "1.2ms", "3s", "600ns", "250ps". The unit is required: a bare
// number is ambiguous. Throws std::invalid_argument with what was expected.
Time parse_time(std::string_view text);

// Shortest exact human form: "1.5us", "600ns", "3s".
std::string format_time(Time t);

}  // namespace collsim

template <>
struct fmt::formatter<collsim::Time> : fmt::formatter<std::string_view> {
    auto format(collsim::Time t, format_context& ctx) const {
        return fmt::formatter<std::string_view>::format(collsim::format_time(t), ctx);
    }
};
