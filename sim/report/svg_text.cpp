#include "sim/report/svg_text.hpp"

#include <cmath>

#include <fmt/format.h>

namespace collsim {

std::string escape_xml(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '"') out += "&quot;";
        else out += c;
    }
    return out;
}

std::string size_label(double bytes) {
    static constexpr const char* kUnits[] = {"", "K", "M", "G", "T"};
    int u = 0;
    while (bytes >= 1024 && u < 4) bytes /= 1024, ++u;
    return fmt::format("{:g}{}", bytes, kUnits[u]);
}

double nice_step(double span) {
    const double raw = span / 5, mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0})
        if (raw <= m * mag) return m * mag;
    return 10 * mag;
}

}  // namespace collsim
