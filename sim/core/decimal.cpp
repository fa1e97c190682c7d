#include "sim/core/decimal.hpp"

#include <algorithm>
#include <cctype>

namespace collsim {

std::optional<SplitQuantity> split_quantity(std::string_view text) {
    size_t i = 0;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    Decimal d;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
        d.negative = text[i] == '-';
        ++i;
    }
    bool digits = false, point = false;
    for (; i < text.size(); ++i) {
        char c = text[i];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            if (d.mantissa > (INT64_MAX - 9) / 10) return std::nullopt;
            d.mantissa = d.mantissa * 10 + (c - '0');
            if (point) ++d.decimals;
            digits = true;
        } else if (c == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    if (!digits) return std::nullopt;
    // An exponent: 'e' or 'E', a sign maybe, then digits ("1e-3", not the
    // unit "EiB").
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        size_t j = i + 1;
        const bool minus = j < text.size() && text[j] == '-';
        if (j < text.size() && (text[j] == '-' || text[j] == '+')) ++j;
        if (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) {
            int exponent = 0;
            for (; j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])); ++j)
                exponent = std::min(exponent * 10 + (text[j] - '0'), 100'000);  // far past any scale: overflow or 0
            d.decimals += minus ? exponent : -exponent;
            i = j;
        }
    }
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t end = text.size();
    while (end > i && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
    return SplitQuantity{d, text.substr(i, end - i)};
}

std::optional<int64_t> scale_decimal(const Decimal& d, int64_t scale, int64_t divisor) {
    // Kept within 128 bits: with a mantissa below 2^63 and the units' scales
    // (below 2^52) and divisors (at most 8), 36 decimal places round any
    // value to zero, and a product past INT64_MAX x divisor overflows the
    // result, so multiplying stops there.
    if (d.mantissa == 0 || d.decimals > 36) return 0;
    if (d.decimals < -38) return std::nullopt;
    __int128 num = static_cast<__int128>(d.mantissa) * scale;
    __int128 den = divisor;
    for (int k = 0; k < d.decimals; ++k) den *= 10;
    for (int k = 0; k < -d.decimals; ++k) {
        if (num > static_cast<__int128>(INT64_MAX) * den) return std::nullopt;
        num *= 10;
    }
    __int128 v = (num + den / 2) / den;
    if (v > INT64_MAX) return std::nullopt;
    int64_t r = static_cast<int64_t>(v);
    return d.negative ? -r : r;
}

}  // namespace collsim
