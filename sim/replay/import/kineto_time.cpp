#include "sim/replay/import/kineto_time.hpp"

#include <cctype>
#include <string>

namespace collsim {

std::optional<int64_t> kineto_ns(std::string_view text) {
    // The digits without the point, and how many of them are before it.
    std::string digits;
    std::size_t i = 0, whole = 0;
    bool point = false;
    for (; i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || (text[i] == '.' && !point)); ++i) {
        if (text[i] == '.') point = true;
        else {
            digits += text[i];
            whole += !point;
        }
    }
    if (digits.empty()) return std::nullopt;
    long exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        const bool minus = ++i < text.size() && text[i] == '-';
        if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
        if (i == text.size()) return std::nullopt;
        for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i)
            exponent = std::min(exponent * 10 + (text[i] - '0'), 100'000L);
        if (minus) exponent = -exponent;
    }
    if (i != text.size()) return std::nullopt;
    // Microseconds to nanoseconds: three more places before the point.
    const long places = static_cast<long>(whole) + exponent + 3;
    unsigned __int128 ns = 0;
    for (long k = 0; k < places; ++k) {
        ns = ns * 10 + (k < static_cast<long>(digits.size()) ? static_cast<unsigned>(digits[k] - '0') : 0);
        if (ns > static_cast<unsigned __int128>(INT64_MAX)) return std::nullopt;
    }
    // Round half up on the first dropped digit.
    if (places >= 0 && places < static_cast<long>(digits.size()) && digits[static_cast<std::size_t>(places)] >= '5')
        ++ns;
    if (ns > static_cast<unsigned __int128>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(ns);
}

}  // namespace collsim
