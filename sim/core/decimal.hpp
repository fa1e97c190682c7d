#pragma once
// Exact parsing of decimal quantities with a unit suffix ("1.5us", "400Gb/s").
// Values are kept as an integer mantissa and a power of ten so that "0.1" times
// a unit scale is exact, not a binary approximation.
#include <cstdint>
#include <optional>
#include <string_view>

namespace collsim {

struct Decimal {
    int64_t mantissa = 0;  // value = mantissa * 10^-decimals
    int decimals = 0;      // below zero after an exponent: "4e3" is 4 with -3
    bool negative = false;
};

struct SplitQuantity {
    Decimal number;
    std::string_view unit;
};

// Splits "  1.5 us" into {1.5, "us"}, "2.5e-3s" into {0.0025, "s"}; nullopt
// if no number leads the text.
std::optional<SplitQuantity> split_quantity(std::string_view text);

// number * scale / divisor, rounded to nearest; nullopt on overflow.
std::optional<int64_t> scale_decimal(const Decimal& d, int64_t scale, int64_t divisor = 1);

}  // namespace collsim
