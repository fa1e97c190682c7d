#include "sim/core/decimal.hpp"

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
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t end = text.size();
    while (end > i && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
    return SplitQuantity{d, text.substr(i, end - i)};
}

std::optional<int64_t> scale_decimal(const Decimal& d, int64_t scale, int64_t divisor) {
    __int128 num = static_cast<__int128>(d.mantissa) * scale;
    __int128 den = divisor;
    for (int k = 0; k < d.decimals; ++k) den *= 10;
    __int128 v = (num + den / 2) / den;
    if (v > INT64_MAX) return std::nullopt;
    int64_t r = static_cast<int64_t>(v);
    return d.negative ? -r : r;
}

}  // namespace collsim
