#include "sim/core/time.hpp"

#include <array>
#include <stdexcept>

#include "sim/core/decimal.hpp"

namespace collsim {

namespace {
struct TimeUnit {
    std::string_view name;
    int64_t ps;
};
constexpr std::array<TimeUnit, 8> kUnits{{
    {"ps", 1},
    {"ns", 1'000},
    {"us", 1'000'000},
    {"ms", 1'000'000'000},
    {"s", 1'000'000'000'000},
    {"min", 60'000'000'000'000},
    {"h", 3'600'000'000'000'000},
    {"µs", 1'000'000},
}};
}  // namespace

Time parse_time(std::string_view text) {
    auto q = split_quantity(text);
    if (!q) throw std::invalid_argument("a time with a unit, like '600ns', '1.5us' or '2ms'");
    for (const auto& u : kUnits) {
        if (q->unit == u.name) {
            auto ps = scale_decimal(q->number, u.ps);
            if (!ps) throw std::invalid_argument("a time that fits in 106 days");
            // The clock counts whole picoseconds: a non-zero time that rounds
            // to none would vanish without a word.
            if (*ps == 0 && q->number.mantissa != 0)
                throw std::invalid_argument("a time of 0 or at least 0.5ps (the clock counts picoseconds)");
            return Time::from_ps(*ps);
        }
    }
    if (q->unit.empty()) throw std::invalid_argument("a unit after the number (ps, ns, us, ms, s, min, h)");
    throw std::invalid_argument("a time unit: ps, ns, us, ms, s, min or h");
}

std::string format_time(Time t) {
    int64_t ps = t.ps();
    if (ps == 0) return "0s";
    std::string sign = ps < 0 ? "-" : "";
    uint64_t mag = ps < 0 ? static_cast<uint64_t>(-(ps + 1)) + 1 : static_cast<uint64_t>(ps);
    // Pick the largest unit whose integer part is non-zero, then print only the
    // fractional digits that are needed to stay exact.
    static constexpr std::array<std::pair<std::string_view, uint64_t>, 5> units{{
        {"s", 1'000'000'000'000}, {"ms", 1'000'000'000}, {"us", 1'000'000}, {"ns", 1'000}, {"ps", 1}}};
    for (const auto& [name, scale] : units) {
        if (mag < scale) continue;
        uint64_t whole = mag / scale, frac = mag % scale;
        std::string out = sign + std::to_string(whole);
        if (frac != 0) {
            std::string digits = std::to_string(scale + frac).substr(1);
            while (!digits.empty() && digits.back() == '0') digits.pop_back();
            out += "." + digits;
        }
        return out + std::string(name);
    }
    return sign + std::to_string(mag) + "ps";
}

}  // namespace collsim
